// @tally/client: a typed client for Tally's v1 API, for a company's servers (README.md).

export { createTally } from './client.js';
export type {
  CallOptions,
  Commission,
  ConversionInput,
  Helpers,
  Lead,
  LeadInput,
  Payment,
  PaymentInput,
  Referral,
  Tally,
  TallyOptions,
} from './client.js';
export { TallyError, unwrap } from './errors.js';
export type { ErrorCode, ErrorObject } from './errors.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';
export type { VerifyOptions, WebhookEvent, WebhookEventType, WebhookHeaders } from './webhooks.js';
export type { components, operations, paths } from './api.js';
