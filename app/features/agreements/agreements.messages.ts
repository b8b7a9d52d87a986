/**
 * User-facing sentences and limits of offers, versions and acceptances (docs/product.md#offers).
 * Browser code imports this module (never zod).
 */

/** Longest scope text, in characters. */
export const SCOPE_MAX = 20_000;
/** Longest "terms and conditions" text in Settings, in characters. */
export const TERMS_MAX = 20_000;
/** Line items of an offer: at least one, at most this many. */
export const MAX_OFFER_ITEMS = 50;
/** Longest line description. */
export const ITEM_DESCRIPTION_MAX = 500;
/** Largest quantity of one line. */
export const MAX_QUANTITY = 10_000;
/** Longest estimated timeline. */
export const OFFER_TIMELINE_MAX = 200;
/** Longest project name. */
export const PROJECT_NAME_MAX = 200;
/** Typed full name: 1–120 characters, not only spaces. */
export const TYPED_NAME_MAX = 120;

export const AGREEMENT_MESSAGES = {
  draftSaved: "Draft saved. The client does not see it.",
  sent: (version: number) => `Version ${version} sent to the client.`,
  unchanged: "Nothing changed since the version the client has. No new version was made.",
  noOffer: "Write the offer first.",
  noClient: "The client has no account yet: the offer can be sent once they register.",
  accepted: (version: number) => `You accepted version ${version}. Your certificate of acceptance is on its way by e-mail.`,
  alreadyAccepted: (version: number) => `You had already accepted version ${version}.`,
  stale: (shown: number, current: number) =>
    `The terms changed while you were reading: you saw version ${shown}, the current one is version ${current}. Read what changed below, then accept version ${current} if you agree.`,
  nothingToAccept: "There is no offer waiting for your acceptance.",
  declinedAlready: "You declined this proposal.",
  closed: "This proposal is closed.",
  nameRequired: "Type your full name.",
  nameTooLong: `Your name may be at most ${TYPED_NAME_MAX} characters.`,
  agreeRequired: "Tick “I have read and agree to these terms” to accept.",
  certificateNotFound: "Certificate not found",
  useAcceptAndSign: "Open the proposal to read its terms, then accept and sign them there.",
  verifyLimited: "Too many checks from your address. Try again in a minute.",
} as const;
