import type { Catalogue } from '../words.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  ui: {
    loading: 'Cargando',
    tryAgain: 'Reintentar',
    copy: 'Copiar',
    copied: 'Copiado',
    downloadCsv: 'Descargar CSV',
    pages: 'Páginas',
    previous: 'Anterior',
    page: 'Página {{page}}',
    next: 'Siguiente',
  },
  api: {
    outdated: 'No se pudo cargar esta página; puede que Tally se haya actualizado. Vuelve a cargar la página.',
    unreachable: 'No se pudo contactar con el servidor. Comprueba la conexión y vuelve a intentarlo.',
    answered: 'El servidor respondió {{status}}.',
  },
  forms: {
    locked_one: 'Demasiadas contraseñas incorrectas seguidas. Vuelve a intentarlo dentro de {{count}} minuto.',
    locked_other: 'Demasiadas contraseñas incorrectas seguidas. Vuelve a intentarlo dentro de {{count}} minutos.',
    locked_many: 'Demasiadas contraseñas incorrectas seguidas. Vuelve a intentarlo dentro de {{count}} de minutos.',
    saved: 'Guardado.',
    cancel: 'Cancelar',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
  },
  twoFactor: {
    title: 'Inicio de sesión en dos pasos',
    hint: 'Introduce el código de tu aplicación de autenticación o un código de recuperación.',
    code: 'Código',
    go: 'Continuar',
    stepUp: 'Confirma que eres tú',
  },
  reset: {
    title: 'Una contraseña nueva',
    yourEmail: 'Tu correo electrónico',
    send: 'Envíame un enlace',
    sent: 'Si esta dirección tiene {{who}}, va de camino un enlace para elegir una contraseña nueva. Sirve una vez, durante 24 horas.',
    back: 'Volver al inicio de sesión',
  },
  range: {
    label: 'Periodo',
    presets: {
      '7': 'Últimos 7 días',
      '30': 'Últimos 30 días',
      '90': 'Últimos 90 días',
      month: 'Este mes',
      custom: 'Personalizado',
    },
    from: 'Desde',
    to: 'Hasta',
    span: 'Del {{from}} 00:00 al {{to}} 24:00, {{zone}}',
  },
  measures: {
    title: 'A lo largo del tiempo',
    measure: 'Medida',
    names: {
      clicks: 'Clics',
      referrals: 'Referidos',
      customers: 'Clientes de pago',
      revenue: 'Ingresos',
      commissions: 'Comisiones',
    },
  },
  chart: {
    failed: 'No se pudo dibujar el gráfico; la tabla de abajo tiene las mismas cifras.',
    asTable: '{{name}} en una tabla',
    date: 'Fecha',
  },
};

export default es;
