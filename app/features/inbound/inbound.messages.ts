/** What the sender of a refused e-mail reply is told (docs/product.md#email-replies). */
export const INBOUND_MESSAGES = {
  subject: "Your reply could not be added to the conversation",
  forged:
    "This address does not accept mail. To answer a message about your project, reply to the notification you received, or write in the portal.",
  expired: "The reply address you wrote to has expired (each one works for 60 days). Please answer in the portal.",
  notAllowed: "This account can no longer write in this conversation. If you think this is a mistake, contact us.",
  wrongSender:
    "Replies are accepted only from the e-mail address of the account the notification was sent to. Please reply from that address, or answer in the portal.",
  empty: "Your reply was empty: nothing was added. Please write your answer above the quoted text.",
  refused: (reason: string) => `Your reply was not added: ${reason}`,
  /** The message text when a reply holds only attachments. */
  filesOnly: "(Files sent by e-mail.)",
} as const;
