/** The certificate PDF as an HTTP download (docs/product.md#certificates): private, never cached. */
export function certificateResponse(pdf: { bytes: Buffer; filename: string }): Response {
  return new Response(new Uint8Array(pdf.bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${pdf.filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
