// Las palabras de las páginas de inicio de sesión del panel en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  signIn: {
    title: 'Iniciar sesión',
    forgot: '¿Olvidaste tu contraseña?',
    notYet:
      '¿Aún no tienes cuenta? El primer arranque del servidor mostró un enlace de inicio de sesión de un solo uso; un propietario puede invitarte desde Ajustes, o ejecuta {{command}}.',
  },
  reset: {
    who: 'una cuenta',
    withoutMail: 'Este Tally no puede enviar correos. Quien lo administra puede generarte un enlace con npx tally users reset <tu correo>.',
  },
  enrol: {
    intro:
      'Un programa que gestionas exige un segundo factor. Escanea este código con tu app de autenticación (o escribe la clave de abajo) y luego introduce el código que muestra.',
    recovery: 'Tus códigos de recuperación, mostrados solo ahora. Cada uno sirve una vez, si pierdes el teléfono: guárdalos lejos de él.',
    qr: 'Código QR de la clave, para tu app de autenticación',
    key: 'Clave:',
  },
  welcome: {
    incomplete: 'Este enlace está incompleto',
    incompleteText: 'Abre el enlace de inicio de sesión completo que recibiste, o pide uno nuevo a un propietario.',
    title: 'Te damos la bienvenida a Tally',
    intro:
      'Elige la contraseña con la que iniciarás sesión. ¿Ya tienes una cuenta en este Tally? Escribe su contraseña en su lugar y la invitación se une a ella. El enlace sirve una vez, durante 24 horas.',
    email: 'Correo',
    emailHint: '(el primer propietario lo elige aquí; las personas invitadas lo dejan vacío)',
    password: 'Contraseña',
    passwordHint: '(al menos 10 caracteres)',
    set: 'Fijar la contraseña e iniciar sesión',
  },
};

export default es;
