// The partner portal: one page app at /portal/, and the programs' public pages at
// /p/<slug>/, on the public /v1 API.

import { render } from 'preact';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
