/**
 * A software WebAuthn authenticator for integration tests: makes the JSON a browser posts
 * after `navigator.credentials.create()` / `.get()` (attestation "none", ES256), with the
 * authenticator-data flags chosen by the test — e.g. user present without user verification
 * (0x01), which no conforming browser sends when verification is required, but an attacker can.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/** Authenticator-data flags (WebAuthn §6.1). */
export const FLAGS = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 } as const;

const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString("base64url");

/** The few CBOR items WebAuthn needs: unsigned/negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: unsupported ${typeof value}`);
}

/** One credential held by the software authenticator. */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private signCount = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicJwk = pair.publicKey.export({ format: "jwk" }) as { x: string; y: string };
  }

  private authData(flags: number, attested: boolean): Buffer {
    const rpIdHash = createHash("sha256").update(this.rpId).digest();
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.signCount);
    const parts: Buffer[] = [rpIdHash, Buffer.from([flags | (attested ? FLAGS.attestedCredentialData : 0)]), count];
    if (attested) {
      const idLength = Buffer.from([0, this.credentialId.length]);
      const coseKey = cbor(
        new Map<number, unknown>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(this.publicJwk.x, "base64url")],
          [-3, Buffer.from(this.publicJwk.y, "base64url")],
        ]),
      );
      parts.push(Buffer.alloc(16), idLength, this.credentialId, coseKey);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The browser's answer to registration options (`{ challenge }`), with `flags` in the authenticator data. */
  register(options: { challenge: string }, flags: number = FLAGS.userPresent | FLAGS.userVerified) {
    const attestationObject = cbor(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", this.authData(flags, true)],
      ]),
    );
    const id = b64url(this.credentialId);
    return {
      id,
      rawId: id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** The browser's answer to sign-in options (`{ challenge }`), signed, with `flags` in the authenticator data. */
  assert(options: { challenge: string }, flags: number = FLAGS.userPresent | FLAGS.userVerified) {
    this.signCount += 1;
    const authenticatorData = this.authData(flags, false);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]),
      this.privateKey,
    );
    const id = b64url(this.credentialId);
    return {
      id,
      rawId: id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      },
    };
  }
}
