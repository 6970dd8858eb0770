// La página de recursos de marca del portal en español (en.ts da la forma).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Recursos de marca',
  intro: '{{program}} comparte estos logotipos, imágenes, documentos y textos para que los uses al promocionarlo.',
  none: 'Aún no hay recursos',
  noneText: 'El programa todavía no ha compartido ninguno.',
  download: 'Descargar',
  copy: 'Copiar texto',
  types: {
    image: 'Imagen',
    pdf: 'Documento PDF',
    zip: 'Archivo ZIP',
  },
};

export default es;
