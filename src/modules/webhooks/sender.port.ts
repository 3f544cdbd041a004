/** The webhook sender port: one HTTP POST to a receiver, never following redirects. */
export interface WebhookSender {
  send(req: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<SendResult>;
}

export type SendResult =
  | { kind: 'response'; status: number }
  /** No HTTP answer: timeout, refused connection, blocked address. */
  | { kind: 'error'; message: string };
