// El inicio de sesión en dos pasos del portal, en español (la forma es la de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  panel: {
    title: 'Seguridad',
    on: 'El inicio de sesión en dos pasos está activado: después de tu contraseña, se te pide un código de tu aplicación de autenticación o tu llave de acceso.',
    off: 'El inicio de sesión en dos pasos está desactivado: basta tu contraseña para iniciar sesión.',
    manage: 'Inicio de sesión en dos pasos',
  },
  page: {
    title: 'Inicio de sesión en dos pasos',
    back: 'Volver a Ajustes',
    intro:
      'Después de tu contraseña, se te pide un código de seis cifras de una aplicación de autenticación en tu teléfono, para que una contraseña robada no baste. Cambiar cómo te pagan vuelve a pedir un código pasados diez minutos. Una llave de acceso (la huella, la cara o el PIN de este dispositivo, o una llave de seguridad) también sirve, y te permite entrar sin contraseña.',
  },
  enrol: {
    add: 'Añadir una aplicación de autenticación',
    scan: 'Escanea este código QR con tu aplicación de autenticación, o escribe la clave en ella, y luego introduce el código de seis cifras que muestra.',
    qr: 'Código QR de la clave, para tu aplicación de autenticación',
    key: 'Clave:',
    code: 'Código de la aplicación',
    confirm: 'Confirmar la aplicación',
    cancel: 'Cancelar',
  },
  factor: {
    kinds: {
      totp: 'Aplicación de autenticación',
      webauthn: 'Llave de acceso',
    },
    added: 'añadida el {{date}}',
    lastUsed: 'usada por última vez el {{date}}',
    left_one: 'queda {{count}} código de recuperación',
    left_many: 'quedan {{count}} de códigos de recuperación',
    left_other: 'quedan {{count}} códigos de recuperación',
    renew: 'Nuevos códigos de recuperación',
    remove: 'Quitar',
  },
  codes: {
    title: 'Tus códigos de recuperación',
    text: 'Se muestran solo ahora. Cada uno sirve una vez, en lugar de un código de la aplicación, si pierdes el teléfono: guárdalos aparte.',
    copy: 'Copiar los códigos',
    download: 'Descargar los códigos',
  },
  renew: {
    title: 'Nuevos códigos de recuperación',
    text: 'Diez códigos nuevos sustituyen a tus códigos de recuperación: los anteriores dejan de funcionar.',
    make: 'Crear códigos nuevos',
  },
  remove: {
    title: 'Quitar la aplicación de autenticación',
    text: 'Para iniciar sesión bastará entonces tu contraseña.',
    password: 'Contraseña',
    done: 'La aplicación de autenticación se ha quitado: ahora basta tu contraseña para iniciar sesión.',
  },
  proof: 'Un código de la aplicación o un código de recuperación',
  proofPasskey: '(déjalo vacío para usar tu llave de acceso)',
};

export default es;
