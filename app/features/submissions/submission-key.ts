/** The hidden field of a composer form holding its idempotency key (issue #36; see submission-key.server.ts). */
export const SUBMISSION_KEY_FIELD = "submissionKey";
