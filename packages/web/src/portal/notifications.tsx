// The partner's e-mail preferences, for the settings page: the component and its own
// catalogue live in notifications/ (the catalogue test checks the keys of code under it).

export { NotificationPreferences } from './notifications/preferences.js';
