import { rawCall } from '../api/client';

/** Saves a blob as a file through a temporary link (the PDF receipt). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function downloadReceiptPdf(payoutId: string): Promise<void> {
  const blob = await rawCall<Blob>('GET', `/v1/withdraws/${encodeURIComponent(payoutId)}/receipt`, { accept: 'application/pdf' });
  saveBlob(new Blob([blob], { type: 'application/pdf' }), `comprobante-${payoutId}.pdf`);
}

/**
 * The receipt's HTML voucher in a tab of its own. It needs the bearer token, so it is fetched and opened as a blob
 * document, which inherits the dashboard's Content-Security-Policy: its one inline <style> becomes a blob
 * stylesheet (allowed: `style-src 'self' blob:`), and nothing in it can run a script.
 */
export async function openReceiptHtml(payoutId: string, target: Window | null): Promise<void> {
  const blob = await rawCall<Blob>('GET', `/v1/withdraws/${encodeURIComponent(payoutId)}/receipt`, { accept: 'text/html' });
  let html = await blob.text();
  html = html.replace(/<style[^>]*>([\s\S]*?)<\/style>/gi, (_m, css: string) => {
    const cssUrl = URL.createObjectURL(new Blob([css], { type: 'text/css' }));
    return `<link rel="stylesheet" href="${cssUrl}">`;
  });
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
  if (target && !target.closed) target.location.href = url;
  else window.open(url, '_blank');
}
