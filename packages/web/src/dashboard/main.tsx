// The owner's dashboard: one page app at /dashboard/, on the public /v1 API.

import { render } from 'preact';
import { App } from './app.js';
import { start } from './language.js';

// Once the browser's language is loaded (English is in the bundle; another is a small chunk).
void start().then(() => render(<App />, document.getElementById('app')!));
