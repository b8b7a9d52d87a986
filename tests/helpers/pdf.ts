import { extractText, getDocumentProxy } from "unpdf";

/** Extracts a PDF's text with a real parser (pdf.js through unpdf). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}
