/**
 * The REST API's types, generated from the service's own OpenAPI document (GET /openapi.json).
 * Do not edit: run `npm run gen:api` after changing a route schema. A unit test fails while this is stale.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description 200 while the store answers, even when a dependency such as Redis is degraded.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one MCP JSON-RPC message (Streamable HTTP, stateless)
         * @description The Model Context Protocol endpoint for agents, revision 2025-06-18, in stateless JSON mode: one JSON-RPC
         *     message per request, answered as `application/json` (no session id, no SSE stream). Send
         *     `Accept: application/json, text/event-stream` and the raw API key as `Authorization: Bearer svc_…`.
         *
         *     Tools: `request_payout` (takes an `idempotency_key`), `simulate_payout` and `resolve_destination` (look before
         *     paying; they write nothing), `get_payout`, `list_payouts`, `get_receipt`, `get_balance`, `get_cvu`,
         *     `list_recent_deposits`, `list_transactions`, `get_thresholds` and `propose_threshold_change` (the owner confirms
         *     it). A tool that fails answers 200 with `isError: true` in the result; with an OAuth access token, a tool outside
         *     its scopes answers 403 `INSUFFICIENT_SCOPE` with `WWW-Authenticate: Bearer error="insufficient_scope", scope=…`.
         *
         *     Batches (JSON arrays) are refused with a JSON-RPC error: that revision removed them. Requests from a browser
         *     page of another origin are refused (403).
         */
        post: operations["callMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 503 naming the reason while migrations are pending or a dependency is degraded: take the node out of rotation.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log (owner session)
         * @description Who did what, newest first: the owner or an agent through its key. Page with `limit` and `cursor` (`next_cursor`).
         */
        get: operations["listActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys (owner session)
         * @description Never shows the secrets.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key (owner session)
         * @description One key per agent is recommended, so that each payout shows which agent asked. The secret, `key`, is in this answer only.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an API key (owner session)
         * @description MCP calls with the key, the JWTs minted from it and, for an app connected by OAuth, its access and refresh tokens stop working at once. Other keys are not affected.
         */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        /**
         * Change a key's controls (owner session)
         * @description Its name, scopes, allowlist, its own limits and its expiry; fields not sent keep their value. Takes effect on the key's next request.
         */
        patch: operations["updateApiKey"];
        trace?: never;
    };
    "/v1/approval-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Approval channels and whether each reaches the owner (owner session)
         * @description The channels this server offers. With none that reaches the owner, payouts that need approval answer 503 `APPROVAL_NOT_CONFIGURED`.
         */
        get: operations["listApprovalChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approval-channels/telegram": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start linking Telegram (owner session)
         * @description A one-time code and a t.me deep link, valid 15 minutes. Opening the link in the owner's Telegram links the chat; approvals are then also asked there, with Approve and Reject buttons.
         */
        post: operations["createTelegramLink"];
        /** Unlink Telegram (owner session) */
        delete: operations["unlinkTelegram"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approval-channels/whatsapp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start linking WhatsApp (owner session)
         * @description A one-time code and a wa.me link, valid 15 minutes. The owner sends the code (the link types it in) from their phone to the business number; that number is then linked and approvals are also asked there, as a template message with Aprobar and Rechazar buttons. Linking again replaces the number.
         */
        post: operations["createWhatsAppLink"];
        /**
         * Unlink WhatsApp (owner session)
         * @description Approvals are no longer sent to the number; buttons pressed on earlier messages are refused.
         */
        delete: operations["unlinkWhatsApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List approvals, newest first
         * @description Filter by `status` (e.g. `pending` for what waits for the owner); pass `next_cursor` as `cursor` for the next page.
         */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an approval */
        get: operations["getApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a pending request (owner session)
         * @description An approved payout is submitted to the bank rail at once. Approving re-checks what would deny the payout (KYC, the absolute cap, the destination): if any now applies, the request ends and the answer is 422 `PAYOUT_DENIED` with `reasons`. Exactly one decision wins; deciding after the window is 409 `APPROVAL_EXPIRED`.
         */
        post: operations["approveApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a pending request (owner session)
         * @description The payout or threshold change is not carried out. Exactly one decision wins; deciding after the window is 409 `APPROVAL_EXPIRED`.
         */
        post: operations["rejectApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange an API key for a JWT (agent session)
         * @description The REST API does not take API keys directly. A deleted or expired key can no longer be exchanged.
         */
        post: operations["exchangeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Available balance */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cvu": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The CVU and alias to receive money */
        get: operations["getCvu"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deposits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent transfers to and from the CVU
         * @description Up to the 100 most recent transfer legs, read live from the bank rail. Outgoing legs are listed too: check `direction` (`credit` is incoming). Empty, not an error, before onboarding.
         */
        get: operations["listDeposits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/destinations/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Who is behind a CBU, CVU or alias
         * @description Asks the bank who holds the account, before paying it. Nothing is written. A destination the bank does not know, or one that is not a well-formed CBU, CVU or alias, is 404 `DESTINATION_NOT_FOUND`.
         */
        post: operations["resolveDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live updates for the dashboard (owner session, server-sent events)
         * @description A `text/event-stream` that stays open: first, and then whenever one changes, an `event: state` whose `data` is a JSON object of fingerprints, one per topic (`approvals`: the pending approvals; `payouts`: the 20 newest payouts; `money`: the wallet history; `pause`: the emergency stop; `limits`: the limits and whitelist). A client fetches again what a changed fingerprint covers. Changes on this node arrive within milliseconds, those made on another node within `LIVE_POLL_MS`. A comment line (`: ping`) every `LIVE_HEARTBEAT_MS` keeps proxies from closing it; the stream ends after 30 minutes, or when the token it was opened with expires if sooner, and the client opens another. Send the `Authorization` header (read it with `fetch`; EventSource cannot send headers). A user holds at most 10 streams at once (429 past them) and a node as many as `MAX_REQUESTS_IN_FLIGHT` (503); both answer `Retry-After`, and an open stream does not count as a request in flight.
         */
        get: operations["streamLiveState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in as the owner (email and password)
         * @description The owner's session, needed for the operations that only the owner may do.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/interactions/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An app asking to connect (owner session)
         * @description Which app asks, for which scopes, and where the answer goes; `agent` is the agent it already is for this owner, if any, which approving updates (the consent page starts from its controls). The dashboard shows it on its consent page. Only in the browser the authorization sent there (it carries the cookie set then): elsewhere, as for these decisions, 404 `NOT_FOUND`.
         */
        get: operations["getOAuthInteraction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/interactions/{uid}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Let an app connect, with its own controls (owner session)
         * @description The app becomes an agent in the keys list (kind `oauth`) with the scopes, limits, allowlist and expiry given here, exactly as a key. Open `redirect_to` in the browser that started the authorization to hand the app its code. An authorization is decided once: a second approval or refusal (another tab, a double click) is 409 `APPROVAL_ALREADY_DECIDED` and changes nothing.
         */
        post: operations["approveOAuthInteraction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/interactions/{uid}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refuse an app (owner session)
         * @description The app is told `access_denied`. Open `redirect_to` in the browser that started the authorization.
         */
        post: operations["denyOAuthInteraction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete onboarding: register the legal identity and get a CVU (owner session)
         * @description The bank rail issues the CVU and a three-word alias. Until this is done, balance, CVU and payouts answer 422 `ONBOARDING_INCOMPLETE`. In the sandbox KYC is `verified` at once, except for the documented test legal ids.
         */
        post: operations["completeOnboarding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether payouts are paused */
        get: operations["getPayoutsPause"];
        put?: never;
        /**
         * Pause every payout (owner session)
         * @description The emergency stop: once this answers, no transfer toward the bank is started for you until you resume. New payouts are denied, held ones cannot be approved, payouts left approved wait (`waiting_for_resume`; you may cancel them); `in_flight` lists the ones already on their way, which may still reach the bank.
         */
        post: operations["pausePayouts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume payouts (owner session)
         * @description Ends the emergency stop; payouts left waiting are sent.
         */
        post: operations["resumePayouts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/crypto": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Simulate a crypto deposit and its off-ramp to ARS (sandbox, owner session)
         * @description Credits the wallet with the converted amount, or fails the off-ramp when `fail` is true; fires the `crypto.*` events either way.
         */
        post: operations["sandboxCryptoDeposit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/deposits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fund the wallet from an account at another bank (sandbox, owner session)
         * @description The money arrives as any incoming transfer would: it shows in deposits and fires `deposit.detected`. The sender fields default to a fictitious outside account.
         */
        post: operations["sandboxDeposit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/kyc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the KYC status (sandbox, owner session)
         * @description Payouts of a user whose KYC is not `verified` are denied with reason `kyc_incomplete`.
         */
        post: operations["sandboxSetKyc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/thresholds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The policy limits
         * @description The server defaults until the owner sets them.
         */
        get: operations["getThresholds"];
        /**
         * Replace the policy limits (owner session)
         * @description Takes effect at once for every key of the user. Omitted numeric fields are written as 0, which disables that limit. Agents cannot change limits; through MCP they may propose a change that the owner confirms.
         */
        put: operations["replaceThresholds"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List wallet transactions
         * @description Money in and out of the wallet, newest first: a debit per payout that reached the bank, a credit per incoming deposit. While `has_more` is true, pass `next_cursor` as `cursor`; pages neither skip nor repeat entries while new ones arrive.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a transfer and wait for its outcome
         * @description The older surface over the same payout engine. Answers once the bank completed the transfer. At or above the approval threshold the request is held open while the owner decides, at most 5 minutes. Send an `Idempotency-Key` and reuse it on retries: a retry answers the same transfer.
         */
        post: operations["createTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transfers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a transfer
         * @description The same shape as the answer of `POST /v1/transfers`; while not final, `status` is `pending_approval` or `processing`.
         */
        get: operations["getTransfer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up
         * @description Creates the user and its first API key, `default`, whose secret is in `default_api_key.key`: store it now, it is never shown again. Next: log in, then complete onboarding.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the webhook (owner session)
         * @description One per user; `webhook` is null when none is set. The secret is never shown.
         */
        get: operations["getWebhook"];
        /**
         * Create or replace the webhook (owner session)
         * @description Events are POSTed to `url`, signed with `secret`: `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. The secret is write-only and must be at least 16 characters. Private, loopback and reserved addresses are refused unless the server is configured for local development.
         */
        put: operations["putWebhook"];
        post?: never;
        /** Remove the webhook (owner session) */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent webhook deliveries (owner session)
         * @description The 50 most recent, failures included; pass `next_cursor` as `cursor` for older ones (after a long outage, to find every failed delivery). Records are kept 7 days.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again (owner session)
         * @description The event goes out again as a new delivery, for receivers that were down. Needs a webhook to be set.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event now (owner session)
         * @description Sends a signed `webhook.test` event to the webhook and answers with the attempt, so you can check your receiver and its signature check. 404 when no webhook is set or it is inactive.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/withdraws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payouts, newest first
         * @description At most 100 per page; pass `next_cursor` as `cursor` for the next page.
         */
        get: operations["listPayouts"];
        put?: never;
        /**
         * Request a payout
         * @description Answers at once. 201: allowed and submitted to the bank rail. 202: held for the owner's approval (`approval_id`,
         *     `expires_in`); follow it with `GET /v1/withdraws/{id}` or webhooks. 422 `PAYOUT_DENIED` carries the policy `reasons`
         *     and creates no payout. To see beforehand what a payout would get, without creating anything, use
         *     `POST /v1/withdraws/simulate`.
         *
         *     Send an `Idempotency-Key` and reuse it when you retry: the same key with the same body replays the first answer
         *     for 24 hours, with `Idempotent-Replayed: true`; with a different body it is 422 `IDEMPOTENCY_KEY_REUSED`; while
         *     the first request is still running it is 409 `IDEMPOTENCY_KEY_IN_USE`.
         */
        post: operations["requestPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/withdraws/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payout
         * @description Another user's payout is 404.
         */
        get: operations["getPayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/withdraws/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a payout held by the emergency stop (owner session)
         * @description A payout left `approved` while payouts are paused waits to be sent (`waiting_for_resume`). Canceling it ends it `failed` with `failure_reason: "canceled_by_owner"` and gives its amount back to the limits. Its idempotency key keeps answering what its request was told (a request not answered yet is told of the failure). A payout already on its way to the bank, or in any other state, answers 409.
         */
        post: operations["cancelPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/withdraws/{id}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Receipt of a payout: HTML voucher, JSON or PDF
         * @description A printable Argentine transfer voucher (`text/html`, the default), its data (`application/json`) or a PDF (`application/pdf`). Choose with the `Accept` header or with `?format=`, which wins. Available in every status; the title says the outcome.
         */
        get: operations["getReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/withdraws/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a payout before requesting it
         * @description The same body as `POST /v1/withdraws`, no `Idempotency-Key`. Answers the decision a payout would get now
         *     (`allow`, `require_approval` or `deny`, with the same `reasons`), what is left of each limit, and who is behind
         *     the destination. Nothing is created or counted. Where a payout would answer an error instead of a decision
         *     (no wallet, approval needed but no approval channel, the rail not answering), this answers the same error.
         *     It is a snapshot: a payout sent afterwards is decided again.
         */
        post: operations["simulatePayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    callMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description echoed in the answer */
                    id?: string | number;
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    /** @description `initialize`, `tools/list`, `tools/call`, `ping`, or a notification such as `notifications/initialized` (no `id`) */
                    method: string;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The JSON-RPC answer: a result, or a JSON-RPC error */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description echoed in the answer */
                        id: string | number;
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        /** @description for `tools/call`: `content` (a text item holding the JSON answer), `structuredContent`, and `isError` for tool errors */
                        result: {
                            [key: string]: unknown;
                        };
                    } | {
                        error: {
                            /** @description -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params */
                            code: number;
                            data?: unknown;
                            message: string;
                        };
                        id?: (string | number) | null;
                        /** @enum {string} */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description A notification (a message without `id`) was accepted; no body */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not valid JSON (-32700) or a batch (-32600), as a JSON-RPC error; or INVALID_REQUEST in the envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @description -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params */
                            code: number;
                            data?: unknown;
                            message: string;
                        };
                        id?: (string | number) | null;
                        /** @enum {string} */
                        jsonrpc: "2.0";
                    } | ({
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    });
                };
            };
            /** @description Missing, invalid or expired credentials: unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "unauthorized";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: FORBIDDEN, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "FORBIDDEN" | "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `Accept` must list both application/json and text/event-stream (JSON-RPC error) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @description -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params */
                            code: number;
                            data?: unknown;
                            message: string;
                        };
                        id?: (string | number) | null;
                        /** @enum {string} */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listActivity: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the log */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            /** @description what happened, e.g. payout.requested, payout.denied, approval.approve, mcp.request_payout */
                            action: string;
                            /** @description agent: through an API key; owner: the owner session */
                            actor: "owner" | "agent";
                            api_key_id: string | null;
                            api_key_name: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description details of the action (JSON) */
                            data: unknown;
                            id: string;
                            subject_id: string | null;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys of the user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: {
                            /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                            allowlist: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            daily_limit_ars: number;
                            /** @description After this instant the key and its tokens stop working; null = never */
                            expires_at: string | null;
                            /** @description `key_…` */
                            id: string;
                            /** @description `key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens */
                            kind: "key" | "oauth";
                            /** @description Last use, to the minute */
                            last_used_at: string | null;
                            /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            monthly_limit_ars: number;
                            name: string;
                            /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            per_tx_limit_ars: number;
                            /** @description What the key may do; omitted at creation = every scope */
                            scopes: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                        }[];
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                    allowlist?: string[];
                    /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    daily_limit_ars?: number;
                    /** @description After this instant the key and its tokens stop working; null = never */
                    expires_at?: string | null;
                    /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    monthly_limit_ars?: number;
                    /** @description a label, e.g. the name of the agent; trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    name: string;
                    /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    per_tx_limit_ars?: number;
                    /** @description What the key may do; omitted at creation = every scope */
                    scopes?: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                };
            };
        };
        responses: {
            /** @description The new key, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                        allowlist: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                        daily_limit_ars: number;
                        /** @description After this instant the key and its tokens stop working; null = never */
                        expires_at: string | null;
                        /** @description `key_…` */
                        id: string;
                        /** @description the secret, `svc_…`; shown only in this response */
                        key: string;
                        /** @description `key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens */
                        kind: "key" | "oauth";
                        /** @description Last use, to the minute */
                        last_used_at: string | null;
                        /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                        monthly_limit_ars: number;
                        name: string;
                        /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                        per_tx_limit_ars: number;
                        /** @description What the key may do; omitted at creation = every scope */
                        scopes: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the key id (`key_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the key id (`key_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                    allowlist?: string[];
                    /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    daily_limit_ars?: number;
                    /** @description After this instant the key and its tokens stop working; null = never */
                    expires_at?: string | null;
                    /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    monthly_limit_ars?: number;
                    /** @description trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    name?: string;
                    /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    per_tx_limit_ars?: number;
                    /** @description What the key may do; omitted at creation = every scope */
                    scopes?: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                };
            };
        };
        responses: {
            /** @description The key as it is now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                        allowlist: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                        daily_limit_ars: number;
                        /** @description After this instant the key and its tokens stop working; null = never */
                        expires_at: string | null;
                        /** @description `key_…` */
                        id: string;
                        /** @description `key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens */
                        kind: "key" | "oauth";
                        /** @description Last use, to the minute */
                        last_used_at: string | null;
                        /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                        monthly_limit_ars: number;
                        name: string;
                        /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                        per_tx_limit_ars: number;
                        /** @description What the key may do; omitted at creation = every scope */
                        scopes: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listApprovalChannels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channels */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        channels: {
                            /** @description whether the channel reaches the owner */
                            linked: boolean;
                            linked_at: string | null;
                            /** @description dashboard, telegram or whatsapp */
                            name: string;
                            /** @description the linked WhatsApp number, masked */
                            phone: string | null;
                            /** @description the last error the messaging service reported for this link */
                            problem: {
                                at: string;
                                code: number;
                                message: string;
                            } | null;
                            /** @description `active`; `undeliverable` (WhatsApp cannot deliver to the number, or Telegram to the chat, e.g. the bot was blocked: approvals do not go there until the owner writes from it or links again) or `template_error` (the approval template was refused); null when not linked */
                            state: string | null;
                            /** @description the linked Telegram username */
                            username: string | null;
                        }[];
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createTelegramLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The code and link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        expires_at: string;
                        /** @description seconds */
                        expires_in: number;
                        /** @description open it in Telegram */
                        link: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    unlinkTelegram: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createWhatsAppLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The code and link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description e.g. `K7QM-4TZP` */
                        code: string;
                        expires_at: string;
                        /** @description seconds */
                        expires_in: number;
                        /** @description https://wa.me/<business number>?text=… — opens WhatsApp with the message typed in */
                        link: string;
                        /** @description the message to send, with the code */
                        text: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    unlinkWhatsApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                status?: "pending" | "approved" | "rejected" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of approvals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals: {
                            api_key_id: string | null;
                            api_key_name: string | null;
                            created_at: string;
                            decided_at: string | null;
                            /** @description dashboard, telegram, expiry, or policy when a re-check refused it */
                            decided_via: string | null;
                            expires_at: string;
                            /** @description seconds left to decide; 0 once decided or expired */
                            expires_in: number;
                            /** @description `apr_…` */
                            id: string;
                            kind: "payout" | "threshold_change";
                            payout: {
                                amount_ars: number;
                                destination: string;
                                destination_kind: string;
                                id: string;
                                note: string | null;
                                reasons: string[];
                                recipient_name: string | null;
                                status: string;
                            } | null;
                            /** @description pending, approved, rejected or expired */
                            status: string;
                            /** @description An agent's proposal. Pending: `current` is the limits in force now and `proposed` the fields approving would change now. Decided: `current` is the limits it was made on and `proposed` the fields it set */
                            threshold_change: {
                                current: {
                                    [key: string]: unknown;
                                };
                                /** @description Pending, and the owner changed since the proposal a limit it shows as before, or the trusted list it changes: approving it is refused (422 `PAYOUT_DENIED`, reason `limits_changed`); the agent may propose again */
                                limits_changed: boolean;
                                proposed: {
                                    [key: string]: unknown;
                                };
                            } | null;
                        }[];
                        /** @description null on the last page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the approval id (`apr_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key_id: string | null;
                        api_key_name: string | null;
                        created_at: string;
                        decided_at: string | null;
                        /** @description dashboard, telegram, expiry, or policy when a re-check refused it */
                        decided_via: string | null;
                        expires_at: string;
                        /** @description seconds left to decide; 0 once decided or expired */
                        expires_in: number;
                        /** @description `apr_…` */
                        id: string;
                        kind: "payout" | "threshold_change";
                        payout: {
                            amount_ars: number;
                            destination: string;
                            destination_kind: string;
                            id: string;
                            note: string | null;
                            reasons: string[];
                            recipient_name: string | null;
                            status: string;
                        } | null;
                        /** @description pending, approved, rejected or expired */
                        status: string;
                        /** @description An agent's proposal. Pending: `current` is the limits in force now and `proposed` the fields approving would change now. Decided: `current` is the limits it was made on and `proposed` the fields it set */
                        threshold_change: {
                            current: {
                                [key: string]: unknown;
                            };
                            /** @description Pending, and the owner changed since the proposal a limit it shows as before, or the trusted list it changes: approving it is refused (422 `PAYOUT_DENIED`, reason `limits_changed`); the agent may propose again */
                            limits_changed: boolean;
                            proposed: {
                                [key: string]: unknown;
                            };
                        } | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    approveApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the approval id (`apr_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval as decided */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key_id: string | null;
                        api_key_name: string | null;
                        created_at: string;
                        decided_at: string | null;
                        /** @description dashboard, telegram, expiry, or policy when a re-check refused it */
                        decided_via: string | null;
                        expires_at: string;
                        /** @description seconds left to decide; 0 once decided or expired */
                        expires_in: number;
                        /** @description `apr_…` */
                        id: string;
                        kind: "payout" | "threshold_change";
                        payout: {
                            amount_ars: number;
                            destination: string;
                            destination_kind: string;
                            id: string;
                            note: string | null;
                            reasons: string[];
                            recipient_name: string | null;
                            status: string;
                        } | null;
                        /** @description pending, approved, rejected or expired */
                        status: string;
                        /** @description An agent's proposal. Pending: `current` is the limits in force now and `proposed` the fields approving would change now. Decided: `current` is the limits it was made on and `proposed` the fields it set */
                        threshold_change: {
                            current: {
                                [key: string]: unknown;
                            };
                            /** @description Pending, and the owner changed since the proposal a limit it shows as before, or the trusted list it changes: approving it is refused (422 `PAYOUT_DENIED`, reason `limits_changed`); the agent may propose again */
                            limits_changed: boolean;
                            proposed: {
                                [key: string]: unknown;
                            };
                        } | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: APPROVAL_EXPIRED, APPROVAL_ALREADY_DECIDED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "APPROVAL_EXPIRED" | "APPROVAL_ALREADY_DECIDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: PAYOUT_DENIED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYOUT_DENIED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                        /** @description the policy reasons behind the refusal */
                        reasons?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    rejectApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the approval id (`apr_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval as decided */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key_id: string | null;
                        api_key_name: string | null;
                        created_at: string;
                        decided_at: string | null;
                        /** @description dashboard, telegram, expiry, or policy when a re-check refused it */
                        decided_via: string | null;
                        expires_at: string;
                        /** @description seconds left to decide; 0 once decided or expired */
                        expires_in: number;
                        /** @description `apr_…` */
                        id: string;
                        kind: "payout" | "threshold_change";
                        payout: {
                            amount_ars: number;
                            destination: string;
                            destination_kind: string;
                            id: string;
                            note: string | null;
                            reasons: string[];
                            recipient_name: string | null;
                            status: string;
                        } | null;
                        /** @description pending, approved, rejected or expired */
                        status: string;
                        /** @description An agent's proposal. Pending: `current` is the limits in force now and `proposed` the fields approving would change now. Decided: `current` is the limits it was made on and `proposed` the fields it set */
                        threshold_change: {
                            current: {
                                [key: string]: unknown;
                            };
                            /** @description Pending, and the owner changed since the proposal a limit it shows as before, or the trusted list it changes: approving it is refused (422 `PAYOUT_DENIED`, reason `limits_changed`); the agent may propose again */
                            limits_changed: boolean;
                            proposed: {
                                [key: string]: unknown;
                            };
                        } | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: APPROVAL_EXPIRED, APPROVAL_ALREADY_DECIDED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "APPROVAL_EXPIRED" | "APPROVAL_ALREADY_DECIDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    exchangeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the `svc_…` secret */
                    api_key: string;
                };
            };
        };
        responses: {
            /** @description An agent session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description seconds until the token expires; get a new one the same way */
                        expires_in: number;
                        /** @description send as `Authorization: Bearer <token>` */
                        token: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: INVALID_API_KEY */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_API_KEY";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        asset: "ARS";
                        /** @description decimal with 2 decimals, e.g. "1500.00" */
                        available: string;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: ONBOARDING_INCOMPLETE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ONBOARDING_INCOMPLETE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getCvu: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to send money to this wallet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description may be empty */
                        alias: string;
                        /** @enum {string} */
                        asset: "ARS";
                        /** @description 22 digits */
                        cvu: string;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: ONBOARDING_INCOMPLETE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ONBOARDING_INCOMPLETE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listDeposits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transfer legs, both directions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deposits: {
                            /** @description decimal */
                            amount: string;
                            /** Format: date-time */
                            creationTime: string;
                            currency: string;
                            /** @description `credit` is money in */
                            direction: "credit" | "debit";
                            /** @description CBU or CVU of the sender */
                            from: string;
                            fromLegalId: string;
                            fromName: string;
                            id: string;
                            status: string;
                            /** @description CBU or CVU of the receiver */
                            to: string;
                            toLegalId: string;
                            toName: string;
                        }[];
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    resolveDestination: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description CBU, CVU or alias */
                    destination: string;
                    /** @description when omitted: 22 digits starting with 000 are a CVU, other 22 digits a CBU, anything else an alias */
                    destination_kind?: "CBU" | "CVU" | "ALIAS";
                };
            };
        };
        responses: {
            /** @description The account behind the destination */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the 22-digit account (an alias resolved) */
                        account: string;
                        /** @description the bank or provider, when known */
                        bank_name: string | null;
                        destination_kind: "CBU" | "CVU" | "ALIAS";
                        /** @description the holder's CUIT/CUIL, all but its last 3 digits masked (`********783`) */
                        holder_legal_id: string;
                        holder_name: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, DESTINATION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "DESTINATION_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    streamLiveState: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream of state fingerprints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description The owner's session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description seconds until the token expires; get a new one the same way */
                        expires_in: number;
                        /** @description send as `Authorization: Bearer <token>` */
                        token: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: INVALID_CREDENTIALS */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_CREDENTIALS";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getOAuthInteraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the authorization waiting for consent */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pending authorization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the live agent this app already is for this owner, which approving updates (null when it is not connected yet) */
                        agent: {
                            /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                            allowlist: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            daily_limit_ars: number;
                            /** @description After this instant the key and its tokens stop working; null = never */
                            expires_at: string | null;
                            /** @description `key_…` */
                            id: string;
                            /** @description `key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens */
                            kind: "key" | "oauth";
                            /** @description Last use, to the minute */
                            last_used_at: string | null;
                            /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            monthly_limit_ars: number;
                            name: string;
                            /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            per_tx_limit_ars: number;
                            /** @description What the key may do; omitted at creation = every scope */
                            scopes: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                        } | null;
                        client: {
                            /** @description registered dynamically, or the URL of its metadata document */
                            client_id: string;
                            client_name: string | null;
                            client_uri: string | null;
                            logo_uri: string | null;
                        };
                        /** Format: date-time */
                        expires_at: string;
                        /** @description where the answer goes: the app receives the code there */
                        redirect_uri: string;
                        /** @description what the app asked for; the owner may grant fewer */
                        requested_scopes: string[];
                        /** @description the MCP endpoint the tokens are for */
                        resource: string;
                        uid: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    approveOAuthInteraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the authorization waiting for consent */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                    allowlist?: string[];
                    /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    daily_limit_ars?: number;
                    /** @description After this instant the key and its tokens stop working; null = never */
                    expires_at?: string | null;
                    /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    monthly_limit_ars?: number;
                    /** @description a label, e.g. the name of the agent; trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    name?: string;
                    /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                    per_tx_limit_ars?: number;
                    /** @description What the key may do; omitted at creation = every scope */
                    scopes?: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                };
            };
        };
        responses: {
            /** @description Approved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        agent: {
                            /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                            allowlist: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            daily_limit_ars: number;
                            /** @description After this instant the key and its tokens stop working; null = never */
                            expires_at: string | null;
                            /** @description `key_…` */
                            id: string;
                            /** @description `key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens */
                            kind: "key" | "oauth";
                            /** @description Last use, to the minute */
                            last_used_at: string | null;
                            /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            monthly_limit_ars: number;
                            name: string;
                            /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            per_tx_limit_ars: number;
                            /** @description What the key may do; omitted at creation = every scope */
                            scopes: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                        };
                        /** @description open this in the browser that started the authorization to send the app its code */
                        redirect_to: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: APPROVAL_ALREADY_DECIDED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "APPROVAL_ALREADY_DECIDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    denyOAuthInteraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the authorization waiting for consent */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Refused */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description open this in the browser to tell the app it was refused */
                        redirect_to: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: APPROVAL_ALREADY_DECIDED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "APPROVAL_ALREADY_DECIDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    completeOnboarding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description CUIT/CUIL, 11 digits (dashes allowed) */
                    legal_id: string;
                    /** @description the name on the tax record; trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    legal_name: string;
                };
            };
        };
        responses: {
            /** @description The wallet is ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description may be empty */
                        alias: string;
                        /** @enum {string} */
                        asset: "ARS";
                        /** @description 22 digits */
                        cvu: string;
                    } & {
                        kyc_status: "pending" | "verified" | "rejected";
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: ALREADY_ONBOARDED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ALREADY_ONBOARDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getPayoutsPause: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The emergency stop */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description payouts whose submission to the bank had already started when this answered: they may still reach the bank. Nothing else is sent until resume. */
                        in_flight: {
                            amount_ars: number;
                            api_key_id: string | null;
                            api_key_name: string | null;
                            approval_id: string | null;
                            coelsa_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            decision: "allow" | "require_approval";
                            decision_reasons: string[];
                            destination: string;
                            destination_kind: "CBU" | "CVU" | "ALIAS";
                            failure_reason: string | null;
                            /** @description `wd_…` */
                            id: string;
                            idempotency_key: string;
                            note: string | null;
                            provider_transfer_id: string | null;
                            recipient_legal_id: string | null;
                            recipient_name: string | null;
                            resolved_at: string | null;
                            /**
                             * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                             * @enum {string}
                             */
                            status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                            /** Format: date-time */
                            updated_at: string;
                            /** @description approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile */
                            waiting_for_resume: boolean;
                        }[];
                        paused: boolean;
                        paused_at: string | null;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    pausePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The emergency stop */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description payouts whose submission to the bank had already started when this answered: they may still reach the bank. Nothing else is sent until resume. */
                        in_flight: {
                            amount_ars: number;
                            api_key_id: string | null;
                            api_key_name: string | null;
                            approval_id: string | null;
                            coelsa_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            decision: "allow" | "require_approval";
                            decision_reasons: string[];
                            destination: string;
                            destination_kind: "CBU" | "CVU" | "ALIAS";
                            failure_reason: string | null;
                            /** @description `wd_…` */
                            id: string;
                            idempotency_key: string;
                            note: string | null;
                            provider_transfer_id: string | null;
                            recipient_legal_id: string | null;
                            recipient_name: string | null;
                            resolved_at: string | null;
                            /**
                             * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                             * @enum {string}
                             */
                            status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                            /** Format: date-time */
                            updated_at: string;
                            /** @description approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile */
                            waiting_for_resume: boolean;
                        }[];
                        paused: boolean;
                        paused_at: string | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    resumePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The emergency stop */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description payouts whose submission to the bank had already started when this answered: they may still reach the bank. Nothing else is sent until resume. */
                        in_flight: {
                            amount_ars: number;
                            api_key_id: string | null;
                            api_key_name: string | null;
                            approval_id: string | null;
                            coelsa_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            decision: "allow" | "require_approval";
                            decision_reasons: string[];
                            destination: string;
                            destination_kind: "CBU" | "CVU" | "ALIAS";
                            failure_reason: string | null;
                            /** @description `wd_…` */
                            id: string;
                            idempotency_key: string;
                            note: string | null;
                            provider_transfer_id: string | null;
                            recipient_legal_id: string | null;
                            recipient_name: string | null;
                            resolved_at: string | null;
                            /**
                             * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                             * @enum {string}
                             */
                            status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                            /** Format: date-time */
                            updated_at: string;
                            /** @description approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile */
                            waiting_for_resume: boolean;
                        }[];
                        paused: boolean;
                        paused_at: string | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    sandboxCryptoDeposit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount: number;
                    ars_rate?: number;
                    asset: "USDT" | "USDC";
                    fail?: boolean;
                };
            };
        };
        responses: {
            /** @description The simulated deposit and its off-ramp */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description decimal; null when the off-ramp failed */
                        amount_ars: string | null;
                        crypto_deposit_id: string;
                        offramp_id: string;
                        status: "completed" | "failed";
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: ONBOARDING_INCOMPLETE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ONBOARDING_INCOMPLETE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    sandboxDeposit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description ARS, at most 2 decimals */
                    amount_ars: number;
                    from_cbu?: string;
                    from_legal_id?: string;
                    /** @description trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    from_name?: string;
                };
            };
        };
        responses: {
            /** @description The incoming transfer leg */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description decimal */
                        amount: string;
                        /** Format: date-time */
                        creationTime: string;
                        currency: string;
                        /** @description `credit` is money in */
                        direction: "credit" | "debit";
                        /** @description CBU or CVU of the sender */
                        from: string;
                        fromLegalId: string;
                        fromName: string;
                        id: string;
                        status: string;
                        /** @description CBU or CVU of the receiver */
                        to: string;
                        toLegalId: string;
                        toName: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: ONBOARDING_INCOMPLETE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ONBOARDING_INCOMPLETE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    sandboxSetKyc: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    status: "pending" | "verified" | "rejected";
                };
            };
        };
        responses: {
            /** @description The status now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        kyc_status: "pending" | "verified" | "rejected";
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: ONBOARDING_INCOMPLETE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ONBOARDING_INCOMPLETE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getThresholds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description daily limit (calendar day, Buenos Aires), ARS; 0 disables it */
                        daily_limit_ars: number;
                        /** @description monthly limit (calendar month, Buenos Aires), ARS; 0 disables it */
                        monthly_limit_ars: number;
                        /** @description per-payout limit, ARS; 0 disables it */
                        per_tx_limit_ars: number;
                        /** @description payouts above this need approval; 0 disables it */
                        require_approval_above_ars: number;
                        /** @description CBU, CVU or alias; when non-empty, payouts to other destinations need approval */
                        whitelist_cbus: string[];
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    replaceThresholds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description daily limit (calendar day, Buenos Aires), ARS; 0 disables it */
                    daily_limit_ars?: number;
                    /** @description monthly limit (calendar month, Buenos Aires), ARS; 0 disables it */
                    monthly_limit_ars?: number;
                    /** @description per-payout limit, ARS; 0 disables it */
                    per_tx_limit_ars?: number;
                    /** @description payouts above this need approval; 0 disables it */
                    require_approval_above_ars?: number;
                    /** @description CBU, CVU or alias; when non-empty, payouts to other destinations need approval */
                    whitelist_cbus?: string[];
                };
            };
        };
        responses: {
            /** @description Replaced */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        has_more: boolean;
                        next_cursor: string | null;
                        transactions: {
                            /** @description ARS */
                            amount: number;
                            counterparty_name: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            /** @description debits: where the money went */
                            destination?: string;
                            id: string;
                            /** @description credits: where the money came from */
                            origin?: string;
                            /** @description debits: the payout attempt */
                            payout_id?: string;
                            status: "pending" | "completed" | "failed";
                            type: "debit" | "credit";
                        }[];
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createTransfer: {
        parameters: {
            query?: never;
            header: {
                /** @description unique per intended transfer; reuse it on retries */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description ARS, at most 2 decimals */
                    amount: number;
                    /** @description trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    description?: string;
                    /** @description CVU or CBU (22 digits) or alias */
                    destination: string;
                };
            };
        };
        responses: {
            /** @description Completed (or, held for approval, approved and completed) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount: number;
                        approved_at?: string | null;
                        completed_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        description: string | null;
                        destination: string;
                        failure_reason?: string | null;
                        id: string;
                        /** @description `completed`, or `approved` when completed through the owner’s approval; while not final: `pending_approval` or `processing` */
                        status: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST, MISSING_IDEMPOTENCY_KEY */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST" | "MISSING_IDEMPOTENCY_KEY";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error: insufficient_balance, rejected */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "insufficient_balance" | "rejected";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error: expired */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "expired";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "IDEMPOTENCY_KEY_IN_USE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: IDEMPOTENCY_KEY_REUSED, ONBOARDING_INCOMPLETE, invalid_destination, allowlist_violation */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "IDEMPOTENCY_KEY_REUSED" | "ONBOARDING_INCOMPLETE" | "invalid_destination" | "allowlist_violation";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: APPROVAL_NOT_CONFIGURED, RAIL_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "APPROVAL_NOT_CONFIGURED" | "RAIL_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                        /** @description the policy reasons behind the refusal */
                        reasons?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transfer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount: number;
                        approved_at?: string | null;
                        completed_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        description: string | null;
                        destination: string;
                        failure_reason?: string | null;
                        id: string;
                        /** @description `completed`, or `approved` when completed through the owner’s approval; while not final: `pending_approval` or `processing` */
                        status: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description how the owner is addressed; trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    name: string;
                    /** @description at least 10 characters */
                    password: string;
                };
            };
        };
        responses: {
            /** @description The user and its first API key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        email: string;
                        id: string;
                        name: string;
                        onboarding_status: "pending" | "completed";
                    } & {
                        default_api_key: {
                            /** @description Destinations (CBU, CVU or alias) this key may pay; empty = any */
                            allowlist: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** @description Daily total (Buenos Aires day) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            daily_limit_ars: number;
                            /** @description After this instant the key and its tokens stop working; null = never */
                            expires_at: string | null;
                            /** @description `key_…` */
                            id: string;
                            /** @description the secret, `svc_…`; shown only in this response */
                            key: string;
                            /** @description `key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens */
                            kind: "key" | "oauth";
                            /** @description Last use, to the minute */
                            last_used_at: string | null;
                            /** @description Monthly total (Buenos Aires month) for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            monthly_limit_ars: number;
                            name: string;
                            /** @description Largest single payout for this key alone, in ARS; 0 = no key limit (the user's limits still apply) */
                            per_tx_limit_ars: number;
                            /** @description What the key may do; omitted at creation = every scope */
                            scopes: ("payouts:write" | "payouts:read" | "wallet:read" | "transfer:write" | "transactions:read" | "thresholds:read" | "thresholds:propose")[];
                        };
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: EMAIL_TAKEN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "EMAIL_TAKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook, or null */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            /** @description inactive webhooks receive nothing */
                            active: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description `whk_…` */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        } | null;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    putWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description default true */
                    active?: boolean;
                    /** @description at least 16 characters; required */
                    secret?: string;
                    /** @description http or https URL; required */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description The webhook as stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            /** @description inactive webhooks receive nothing */
                            active: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description `whk_…` */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST, MISSING_URL, INVALID_URL, SECRET_TOO_SHORT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST" | "MISSING_URL" | "INVALID_URL" | "SECRET_TOO_SHORT";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (or there was none) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: {
                            /** @description at most 5 */
                            attempt_count: number;
                            /** Format: date-time */
                            created_at: string;
                            /** @description `evt_…`, also sent as X-Svc-Event-Id */
                            event_id: string;
                            /** @description e.g. payout.submitted */
                            event_type: string;
                            /** @description `whd_…` */
                            id: string;
                            last_attempt_at: string | null;
                            last_error: string | null;
                            last_response_status: number | null;
                            next_attempt_at: string | null;
                            /** @description pending, delivered or failed */
                            status: string;
                        }[];
                        /** @description null on the last page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the delivery id (`whd_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description at most 5 */
                        attempt_count: number;
                        /** Format: date-time */
                        created_at: string;
                        /** @description `evt_…`, also sent as X-Svc-Event-Id */
                        event_id: string;
                        /** @description e.g. payout.submitted */
                        event_type: string;
                        /** @description `whd_…` */
                        id: string;
                        last_attempt_at: string | null;
                        last_error: string | null;
                        last_response_status: number | null;
                        next_attempt_at: string | null;
                        /** @description pending, delivered or failed */
                        status: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description at most 5 */
                        attempt_count: number;
                        /** Format: date-time */
                        created_at: string;
                        /** @description `evt_…`, also sent as X-Svc-Event-Id */
                        event_id: string;
                        /** @description e.g. payout.submitted */
                        event_type: string;
                        /** @description `whd_…` */
                        id: string;
                        last_attempt_at: string | null;
                        last_error: string | null;
                        last_response_status: number | null;
                        next_attempt_at: string | null;
                        /** @description pending, delivered or failed */
                        status: string;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listPayouts: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, at most 100 (the default) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payouts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description null on the last page */
                        next_cursor: string | null;
                        withdraws: {
                            amount_ars: number;
                            api_key_id: string | null;
                            api_key_name: string | null;
                            approval_id: string | null;
                            coelsa_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            decision: "allow" | "require_approval";
                            decision_reasons: string[];
                            destination: string;
                            destination_kind: "CBU" | "CVU" | "ALIAS";
                            failure_reason: string | null;
                            /** @description `wd_…` */
                            id: string;
                            idempotency_key: string;
                            note: string | null;
                            provider_transfer_id: string | null;
                            recipient_legal_id: string | null;
                            recipient_name: string | null;
                            resolved_at: string | null;
                            /**
                             * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                             * @enum {string}
                             */
                            status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                            /** Format: date-time */
                            updated_at: string;
                            /** @description approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile */
                            waiting_for_resume: boolean;
                        }[];
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    requestPayout: {
        parameters: {
            query?: never;
            header: {
                /** @description your unique id for this payout, e.g. an order id; missing or blank is 400 MISSING_IDEMPOTENCY_KEY */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description ARS, at most 2 decimals */
                    amount_ars: number;
                    /** @description CBU, CVU or alias */
                    destination: string;
                    /** @description Omitted: inferred from destination (22 digits starting 000 = CVU, other 22 digits = CBU, anything else = alias) */
                    destination_kind?: "CBU" | "CVU" | "ALIAS";
                    /** @description free text; shown on the receipt; trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Allowed and submitted to the bank rail */
            201: {
                headers: {
                    /** @description present when this is the stored answer to an earlier request with the same key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        decision: "allow";
                        /** @description `wd_…` */
                        id: string;
                        /**
                         * @description `submitted`; `approved` while the rail outcome is being reconciled (never resubmit: follow the id)
                         * @enum {string}
                         */
                        status: "submitted" | "approved" | "confirmed";
                    };
                };
            };
            /** @description Held for the owner's approval; the call does not wait for it */
            202: {
                headers: {
                    /** @description present when this is the stored answer to an earlier request with the same key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `apr_…` */
                        approval_id: string;
                        /** @enum {string} */
                        decision: "require_approval";
                        /** @description seconds the owner has to decide; then the payout expires */
                        expires_in: number;
                        /** @description `wd_…` */
                        id: string;
                        /** @description why approval is needed, e.g. `above_approval_threshold` */
                        reasons: string[];
                        /** @enum {string} */
                        status: "pending_approval";
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST, MISSING_IDEMPOTENCY_KEY */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST" | "MISSING_IDEMPOTENCY_KEY";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "IDEMPOTENCY_KEY_IN_USE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: IDEMPOTENCY_KEY_REUSED, ONBOARDING_INCOMPLETE, PAYOUT_DENIED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "IDEMPOTENCY_KEY_REUSED" | "ONBOARDING_INCOMPLETE" | "PAYOUT_DENIED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                        /** @description the policy reasons behind the refusal */
                        reasons?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The bank rail refused the operation: WITHDRAW_FAILED */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "WITHDRAW_FAILED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                        /** @description the attempt that failed; it stays readable */
                        payout_id?: string;
                        /** @description the rail's reason */
                        reason?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, APPROVAL_NOT_CONFIGURED, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "APPROVAL_NOT_CONFIGURED" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                        /** @description the policy reasons behind the refusal */
                        reasons?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the payout id (`wd_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount_ars: number;
                        api_key_id: string | null;
                        api_key_name: string | null;
                        approval_id: string | null;
                        coelsa_id: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** @enum {string} */
                        decision: "allow" | "require_approval";
                        decision_reasons: string[];
                        destination: string;
                        destination_kind: "CBU" | "CVU" | "ALIAS";
                        failure_reason: string | null;
                        /** @description `wd_…` */
                        id: string;
                        idempotency_key: string;
                        note: string | null;
                        provider_transfer_id: string | null;
                        recipient_legal_id: string | null;
                        recipient_name: string | null;
                        resolved_at: string | null;
                        /**
                         * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                         * @enum {string}
                         */
                        status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                        /** Format: date-time */
                        updated_at: string;
                        /** @description approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile */
                        waiting_for_resume: boolean;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    cancelPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the payout id (`wd_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The canceled payout */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount_ars: number;
                        api_key_id: string | null;
                        api_key_name: string | null;
                        approval_id: string | null;
                        coelsa_id: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** @enum {string} */
                        decision: "allow" | "require_approval";
                        decision_reasons: string[];
                        destination: string;
                        destination_kind: "CBU" | "CVU" | "ALIAS";
                        failure_reason: string | null;
                        /** @description `wd_…` */
                        id: string;
                        idempotency_key: string;
                        note: string | null;
                        provider_transfer_id: string | null;
                        recipient_legal_id: string | null;
                        recipient_name: string | null;
                        resolved_at: string | null;
                        /**
                         * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                         * @enum {string}
                         */
                        status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                        /** Format: date-time */
                        updated_at: string;
                        /** @description approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile */
                        waiting_for_resume: boolean;
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: OWNER_SESSION_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "OWNER_SESSION_REQUIRED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Conflicts with the current state; retrying as is will not help: PAYOUT_NOT_CANCELABLE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYOUT_NOT_CANCELABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getReceipt: {
        parameters: {
            query?: {
                /** @description overrides the Accept header */
                format?: "html" | "json" | "pdf";
            };
            header?: never;
            path: {
                /** @description the payout id (`wd_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt in the negotiated format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount_ars: number;
                        api_key_name: string | null;
                        approval: {
                            decided_at: string | null;
                            decided_via: string | null;
                            /** Format: date-time */
                            expires_at: string;
                            id: string;
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected" | "expired";
                        } | null;
                        approved_at: string | null;
                        approved_by: {
                            /** @enum {string} */
                            by: "policy" | "owner";
                            via: string | null;
                        } | null;
                        coelsa_id: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** @enum {string} */
                        currency: "ARS";
                        decision: string;
                        decision_reasons: string[];
                        destination: {
                            account: string | null;
                            account_masked: string | null;
                            account_type: ("CBU" | "CVU") | null;
                            bank_code: string | null;
                            bank_name: string | null;
                            institution: string | null;
                            kind: string;
                            psp_code: string | null;
                            recipient_legal_id: string | null;
                            recipient_name: string | null;
                            /** @description as requested */
                            value: string;
                        };
                        failure_reason: string | null;
                        failure_reason_text: string | null;
                        note: string | null;
                        operation_id: string | null;
                        origin: {
                            alias: string | null;
                            cvu: string;
                            holder_legal_id: string;
                            holder_name: string;
                        };
                        /** @description `wd_…` */
                        payout_id: string;
                        provider_transfer_id: string | null;
                        /** @description our reference at the rail */
                        reference: string;
                        resolved_at: string | null;
                        /**
                         * @description pending_approval → approved → submitted → confirmed; or rejected, expired, failed
                         * @enum {string}
                         */
                        status: "pending_approval" | "approved" | "rejected" | "expired" | "submitted" | "confirmed" | "failed";
                        /** @description in Spanish */
                        status_text: string;
                        submitted_at: string | null;
                        /** @description in Spanish, e.g. "Comprobante de transferencia" once confirmed */
                        title: string;
                    };
                    "application/pdf": string;
                    "text/html": string;
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND, NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND" | "NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    simulatePayout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description ARS, at most 2 decimals */
                    amount_ars: number;
                    /** @description CBU, CVU or alias */
                    destination: string;
                    /** @description Omitted: inferred from destination (22 digits starting 000 = CVU, other 22 digits = CBU, anything else = alias) */
                    destination_kind?: "CBU" | "CVU" | "ALIAS";
                    /** @description free text; shown on the receipt; trimmed; refused when blank or holding bidirectional controls or zero-width characters */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description What a payout with this body would get now; nothing was created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description what the payout would get now
                         * @enum {string}
                         */
                        decision: "allow" | "require_approval" | "deny";
                        destination: {
                            account: string | null;
                            bank_name: string | null;
                            holder_name: string | null;
                            kind: "CBU" | "CVU" | "ALIAS";
                        };
                        limits: {
                            daily: {
                                /** @description ARS; 0 means no limit */
                                limit: number;
                                /** @description ARS left before the limit holds a payout for approval; null when there is no limit */
                                remaining: number | null;
                                /** @description ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit */
                                used: number;
                            };
                            /** @description the agent key's own limit; null for the owner's session */
                            key_daily: {
                                /** @description ARS; 0 means no limit */
                                limit: number;
                                /** @description ARS left before the limit holds a payout for approval; null when there is no limit */
                                remaining: number | null;
                                /** @description ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit */
                                used: number;
                            } | null;
                            /** @description the agent key's own limit; null for the owner's session */
                            key_monthly: {
                                /** @description ARS; 0 means no limit */
                                limit: number;
                                /** @description ARS left before the limit holds a payout for approval; null when there is no limit */
                                remaining: number | null;
                                /** @description ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit */
                                used: number;
                            } | null;
                            /** @description the agent key's own limit; null for the owner's session */
                            key_per_tx: {
                                /** @description ARS; 0 means no limit */
                                limit: number;
                                /** @description ARS left before the limit holds a payout for approval; null when there is no limit */
                                remaining: number | null;
                                /** @description ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit */
                                used: number;
                            } | null;
                            monthly: {
                                /** @description ARS; 0 means no limit */
                                limit: number;
                                /** @description ARS left before the limit holds a payout for approval; null when there is no limit */
                                remaining: number | null;
                                /** @description ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit */
                                used: number;
                            };
                            per_tx: {
                                /** @description ARS; 0 means no limit */
                                limit: number;
                                /** @description ARS left before the limit holds a payout for approval; null when there is no limit */
                                remaining: number | null;
                                /** @description ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit */
                                used: number;
                            };
                        };
                        /** @description the policy reasons, as a payout would carry them (empty when allowed) */
                        reasons: string[];
                    };
                };
            };
            /** @description The request is malformed or fails validation; the message names the field: INVALID_JSON, INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INVALID_JSON" | "INVALID_REQUEST";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing, invalid or expired credentials: UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNAUTHENTICATED" | "TOKEN_EXPIRED" | "INVALID_TOKEN";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description This session may not do this: INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INSUFFICIENT_SCOPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found (or not yours): USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "USER_NOT_FOUND";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is larger than 64 KiB: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "PAYLOAD_TOO_LARGE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is not application/json: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Understood but refused by the rules of the service: ONBOARDING_INCOMPLETE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "ONBOARDING_INCOMPLETE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Rate limit exceeded; wait for Retry-After seconds: RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    /** @description seconds until the budget is renewed */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RATE_LIMIT_EXCEEDED";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected failure; no internals are shown: INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "INTERNAL_ERROR";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A dependency is unavailable; retry later: RAIL_UNAVAILABLE, APPROVAL_NOT_CONFIGURED, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description machine-readable code
                         * @enum {string}
                         */
                        error: "RAIL_UNAVAILABLE" | "APPROVAL_NOT_CONFIGURED" | "SERVICE_UNAVAILABLE";
                        /** @description human-readable explanation, subject to change */
                        message: string;
                        /** @description the policy reasons behind the refusal */
                        reasons?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
}
