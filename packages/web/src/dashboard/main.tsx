// The owner's dashboard: one page app at /dashboard/, on the public /v1 API.

import { render } from 'preact';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
