// The portal's brand resources page in English: the shape every language follows (docs/languages.md).

export default {
  title: 'Brand resources',
  intro: '{{program}} shares these logos, images, documents and texts for you to use when you promote it.',
  none: 'No resources yet',
  noneText: 'The program has not shared any yet.',
  download: 'Download',
  copy: 'Copy text',
  types: {
    image: 'Image',
    pdf: 'PDF document',
    zip: 'ZIP archive',
  },
};
