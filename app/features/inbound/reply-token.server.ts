/**
 * Reply addresses (docs/product.md#email-replies): every notification about a conversation is
 * sent with `Reply-To: reply+<token>@<INBOUND_DOMAIN>`, unique to its recipient and the proposal.
 * The token names the user and the proposal and when it expires (60 days after the mail was
 * sent), signed with HMAC-SHA-256 under a key derived from the server's secret; it is written in
 * lowercase base32 so that mail systems that change the case of addresses do not break it.
 * Nothing is stored: a token is checked by recomputing its signature.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** How long a reply address works after the mail was sent: 60 days. */
export const REPLY_TOKEN_TTL_MS = 60 * 24 * 3600 * 1000;
/** Signature bytes kept (128 bits). */
const MAC_BYTES = 16;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** What a valid token names. */
export interface ReplyTarget {
  userId: string;
  proposalId: number;
  /** When the address stops working. */
  expiresAt: Date;
}

/** Why a token is refused. */
export type ReplyTokenProblem = "forged" | "expired";

function base32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text.toLowerCase()) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The signing key: derived from the server's secret for this one use. */
function keyOf(secret: string): Buffer {
  return createHmac("sha256", secret).update("portal/inbound-reply-token/v1").digest();
}

function mac(secret: string, payload: Buffer): Buffer {
  return createHmac("sha256", keyOf(secret)).update(payload).digest().subarray(0, MAC_BYTES);
}

/**
 * @param secret - the server's secret (BETTER_AUTH_SECRET or the generated one).
 * @param target.userId - the recipient.
 * @param target.proposalId - the conversation.
 * @param now - when the mail is sent; the token works for {@link REPLY_TOKEN_TTL_MS} from then.
 * @returns the token (lowercase base32, about 75 characters).
 */
export function createReplyToken(secret: string, target: { userId: string; proposalId: number }, now: Date = new Date()): string {
  const expiresSeconds = Math.floor((now.getTime() + REPLY_TOKEN_TTL_MS) / 1000);
  const payload = Buffer.from(`${target.proposalId}.${expiresSeconds.toString(36)}.${target.userId}`, "utf8");
  return base32(Buffer.concat([payload, mac(secret, payload)]));
}

/**
 * Checks a token.
 *
 * @returns what it names, or the problem: `forged` (not ours, altered, malformed) or `expired`.
 */
export function verifyReplyToken(secret: string, token: string, now: Date = new Date()): ReplyTarget | { problem: ReplyTokenProblem } {
  if (token.length < 30 || token.length > 400) return { problem: "forged" };
  const raw = fromBase32(token);
  if (!raw || raw.length <= MAC_BYTES) return { problem: "forged" };
  const payload = raw.subarray(0, raw.length - MAC_BYTES);
  const given = raw.subarray(raw.length - MAC_BYTES);
  if (!timingSafeEqual(given, mac(secret, payload))) return { problem: "forged" };
  const match = /^(\d{1,10})\.([0-9a-z]{1,10})\.(.{1,200})$/s.exec(payload.toString("utf8"));
  if (!match) return { problem: "forged" };
  const expiresAt = new Date(parseInt(match[2]!, 36) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { problem: "expired" };
  return { userId: match[3]!, proposalId: Number(match[1]), expiresAt };
}

/** The reply address of a recipient in a conversation: `reply+<token>@<domain>`. */
export function replyAddress(
  secret: string,
  domain: string,
  target: { userId: string; proposalId: number },
  now: Date = new Date(),
): string {
  return `reply+${createReplyToken(secret, target, now)}@${domain}`;
}

/**
 * @returns the token of `address` when it is a reply address of `domain` (case-insensitive),
 *   else null.
 */
export function tokenOfAddress(address: string, domain: string): string | null {
  const at = address.lastIndexOf("@");
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const match = /^reply\+([a-z2-7]+)$/i.exec(address.slice(0, at));
  return match ? match[1]! : null;
}
