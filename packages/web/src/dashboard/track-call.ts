// The one call that records a conversion from a page (docs/tracker.md §3), as every page
// of the dashboard names it: the stub queues it until tracker.js has loaded.

export const TRACK_CALL = "gr('track', 'conversion', {email})";
