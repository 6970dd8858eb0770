// La página de bonificaciones en español.

export default {
  title: 'Bonificaciones',
  intro: 'Recompensas extra por lo que haces en un periodo: alcanzar un objetivo o enviar una prueba de tu trabajo para revisión.',
  none: 'Ahora no hay ninguna bonificación abierta para ti.',
  reward: 'Recompensa: {{amount}}',
  period: 'Del {{from}} al {{to}}',
  target: {
    sales: 'Alcanza {{target}} ventas',
    leads: 'Alcanza {{target}} registros',
    revenue: 'Alcanza {{target}} de ingresos',
  },
  progress: 'Tu progreso',
  progressText: '{{value}} de {{target}}',
  awarded: 'Conseguida: la recompensa está en tus comisiones.',
  left_one: 'Puedes enviar una vez más.',
  left_many: 'Puedes enviar {{count}} de veces más.',
  left_other: 'Puedes enviar {{count}} veces más.',
  noneLeft: 'Has enviado todos los envíos que admite esta bonificación.',
  urls: 'Enlaces, uno por línea',
  urlsHint: 'Como máximo {{count}}, empezando por https://',
  urlRequired: 'Se requiere al menos un enlace.',
  text: 'Lo que hiciste',
  textHint: 'Como máximo {{count}} caracteres',
  submit: 'Enviar',
  sent: 'Enviado: la empresa lo revisará.',
  yours: 'Tus envíos',
  state: {
    pending: 'Pendiente de revisión',
    approved: 'Aprobado',
    rejected: 'Rechazado: {{reason}}',
  },
};
