/**
 * Large e-mail replies (issue #36: "a 24 MB e-mail reply takes 52–98 s to process"): where the
 * time of the inbound path goes, before and after the fix, per kind of mail and size.
 *
 * Kinds: `attachment` (a short text and one base64 attachment), `text` (a long plain-text reply),
 * `quoted` (a short reply above a long quoted history), `html` (a long HTML-only reply). Phases:
 * `parseMs` (mailparser), `replyMs` (the reply's text: HTML read as text, quotes and signature
 * removed — synchronous, it blocks the process), `blockedMs` (the longest event-loop stall seen
 * meanwhile, sampled every 20 ms). "before" is the code as it was (mailparser's HTML-to-text,
 * email-reply-parser over the whole text); "after" is `parseInboundMail` + `replyBody` of
 * app/features/inbound/inbound.server.ts.
 *
 *   npx tsx bench/inbound-large.ts [--sizes 1,2,8,24] [--before-sizes 1,2] [--out bench/results/inbound-large.md]
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import EmailReplyParser from "email-reply-parser";
import { simpleParser, type ParsedMail } from "mailparser";
import { parseInboundMail, replyBody } from "#app/features/inbound/inbound.server";

const KINDS = ["attachment", "text", "quoted", "html"] as const;
type Kind = (typeof KINDS)[number];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
}

/** A raw reply of about `mb` megabytes. */
export function largeMail(kind: Kind, mb: number): Buffer {
  const bytes = Math.floor(mb * 1024 * 1024);
  const head = `From: client@example.com\r\nTo: reply+token@reply.example.com\r\nSubject: Re: Your project\r\nMessage-ID: <${kind}-${mb}@example.com>\r\nMIME-Version: 1.0\r\n`;
  if (kind === "attachment") {
    const b64 = randomBytes(Math.floor((bytes * 3) / 4))
      .toString("base64")
      .replace(/.{76}/g, "$&\r\n");
    return Buffer.from(
      `${head}Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nHere is the file.\r\n--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="brief.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64}\r\n--b--\r\n`,
    );
  }
  if (kind === "text") {
    const line = "Some words of a long reply that goes on and on about the project.\r\n";
    return Buffer.from(`${head}Content-Type: text/plain; charset=utf-8\r\n\r\n${line.repeat(Math.floor(bytes / line.length))}`);
  }
  if (kind === "quoted") {
    const line = "> Some words of a long quoted history that goes on and on about the project.\r\n";
    return Buffer.from(
      `${head}Content-Type: text/plain; charset=utf-8\r\n\r\nThanks, that works for us!\r\n\r\nOn Mon, Jan 1, 2030 at 10:00 Agency wrote:\r\n${line.repeat(Math.floor(bytes / line.length))}`,
    );
  }
  const p = "<p>Some words of a long reply in <b>HTML</b> that goes on and on about the project.</p>\r\n";
  return Buffer.from(
    `${head}Content-Type: text/html; charset=utf-8\r\n\r\n<html><body>${p.repeat(Math.floor(bytes / p.length))}</body></html>`,
  );
}

/** The inbound path as it was before issue #36's fix (inbound.server.ts and reply-text.server.ts then). */
const before = {
  parse: (raw: Buffer) => simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true }),
  reply(mail: ParsedMail): string {
    const text = mail.text ?? (typeof mail.html === "string" ? mail.html.replace(/<[^>]*>/g, " ") : "");
    const OUTLOOK_HEADER = /^(?:-{2,}\s*Original Message\s*-{2,}|_{10,})\s*$|^From: .+\n(?:Sent|Date): /im;
    let reply = new EmailReplyParser().parseReply(text.replace(/\r\n?/g, "\n"));
    const outlook = OUTLOOK_HEADER.exec(reply);
    if (outlook) reply = reply.slice(0, outlook.index);
    return reply.replace(/[ \t]+$/gm, "").trim();
  },
};
const after = { parse: parseInboundMail, reply: replyBody };

interface Row {
  code: "before" | "after";
  kind: Kind;
  mb: number;
  parseMs: number;
  replyMs: number;
  blockedMs: number;
  replyChars: number;
}

async function measure(code: "before" | "after", kind: Kind, mb: number): Promise<Row> {
  const path = code === "before" ? before : after;
  const raw = largeMail(kind, mb);
  let blockedMs = 0;
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    blockedMs = Math.max(blockedMs, now - last - 20);
    last = now;
  }, 20);
  const t0 = performance.now();
  const mail = await path.parse(raw);
  const t1 = performance.now();
  const reply = path.reply(mail);
  const t2 = performance.now();
  await new Promise((r) => setTimeout(r, 30));
  clearInterval(sampler);
  blockedMs = Math.max(blockedMs, t2 - t1);
  return {
    code,
    kind,
    mb,
    parseMs: Math.round(t1 - t0),
    replyMs: Math.round(t2 - t1),
    blockedMs: Math.round(blockedMs),
    replyChars: reply.length,
  };
}

async function main() {
  const sizes = arg("sizes", "1,2,8,24").split(",").map(Number);
  const beforeSizes = arg("before-sizes", "1,2").split(",").map(Number);
  const kinds = arg("kinds", KINDS.join(",")).split(",") as Kind[];
  const out = arg("out", "");
  const rows: Row[] = [];
  for (const kind of kinds) {
    for (const mb of beforeSizes) {
      rows.push(await measure("before", kind, mb));
      console.log(JSON.stringify(rows.at(-1)));
    }
    for (const mb of sizes) {
      rows.push(await measure("after", kind, mb));
      console.log(JSON.stringify(rows.at(-1)));
    }
  }
  if (out) {
    const table = rows
      .map((r) => `| ${r.code} | ${r.kind} | ${r.mb} | ${r.parseMs} | ${r.replyMs} | ${r.blockedMs} | ${r.replyChars} |`)
      .join("\n");
    fs.writeFileSync(
      out,
      `# Large e-mail replies (issue #36)\n\n\`npx tsx bench/inbound-large.ts\` on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} (a shared, busy machine: compare the rows with each other, not with another run).\n\n| code | kind | MB | parse ms | reply ms | longest stall ms | reply chars |\n|---|---|---|---|---|---|---|\n${table}\n`,
    );
  }
}

if (process.argv[1]?.endsWith("inbound-large.ts")) await main();
