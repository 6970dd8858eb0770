// The embedded partner portal: one page at /embed/?token=…, shown by a company's app in an
// iframe (docs/embed.md). It reads one partner's records through the embed's own routes.

import { render } from 'preact';
import { Embed } from './app.js';

render(<Embed />, document.getElementById('app')!);
