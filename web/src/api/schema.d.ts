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
        /** Liveness */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
            };
        };
        put?: never;
        post?: never;
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
        /** Readiness */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                /** @description SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** The audit log of the account, newest first (owner session); page with limit and cursor (next_cursor) */
        get: {
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
                /** @description Default Response */
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
                /** @description INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** List API keys (never their secrets) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            api_keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API key (owner session; one per agent is recommended); the secret is shown only here */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            /** @description the secret; shown only in this response */
                            key: string;
                            name: string;
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Delete an API key (owner session): MCP calls and tokens minted from it stop working at once (D12) */
        delete: {
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
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approval-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The approval channels of this server and whether each reaches the user */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channels: {
                                linked: boolean;
                                linked_at: string | null;
                                name: string;
                                username: string | null;
                            }[];
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** A one-time code and t.me deep link (15 minutes) that links the owner’s Telegram chat */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            expires_at: string;
                            expires_in: number;
                            link: string;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Unlink Telegram */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Approvals, newest first; filter by status and page with limit and cursor (next_cursor) */
        get: {
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
                /** @description Default Response */
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
                                decided_via: string | null;
                                expires_at: string;
                                expires_in: number;
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
                                status: string;
                                threshold_change: {
                                    current: {
                                        [key: string]: unknown;
                                    };
                                    proposed: {
                                        [key: string]: unknown;
                                    };
                                } | null;
                            }[];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** One approval */
        get: {
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
                /** @description Default Response */
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
                            decided_via: string | null;
                            expires_at: string;
                            expires_in: number;
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
                            status: string;
                            threshold_change: {
                                current: {
                                    [key: string]: unknown;
                                };
                                proposed: {
                                    [key: string]: unknown;
                                };
                            } | null;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Approve a pending request (owner session only, D13) */
        post: {
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
                /** @description Default Response */
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
                            decided_via: string | null;
                            expires_at: string;
                            expires_in: number;
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
                            status: string;
                            threshold_change: {
                                current: {
                                    [key: string]: unknown;
                                };
                                proposed: {
                                    [key: string]: unknown;
                                };
                            } | null;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description APPROVAL_EXPIRED, APPROVAL_ALREADY_DECIDED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description PAYOUT_DENIED */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RAIL_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Reject a pending request (owner session only, D13) */
        post: {
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
                /** @description Default Response */
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
                            decided_via: string | null;
                            expires_at: string;
                            expires_in: number;
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
                            status: string;
                            threshold_change: {
                                current: {
                                    [key: string]: unknown;
                                };
                                proposed: {
                                    [key: string]: unknown;
                                };
                            } | null;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description APPROVAL_EXPIRED, APPROVAL_ALREADY_DECIDED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description PAYOUT_DENIED */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RAIL_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Exchange an API key for a JWT (agent session) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        api_key: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description seconds */
                            expires_in: number;
                            token: string;
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description INVALID_API_KEY */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ONBOARDING_INCOMPLETE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alias: string;
                            /** @enum {string} */
                            asset: "ARS";
                            /** @description 22 digits */
                            cvu: string;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ONBOARDING_INCOMPLETE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Up to the 100 most recent transfer legs to and from the CVU, both directions: check `direction` */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                                direction: "credit" | "debit";
                                from: string;
                                fromLegalId: string;
                                fromName: string;
                                id: string;
                                status: string;
                                to: string;
                                toLegalId: string;
                                toName: string;
                            }[];
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Log in with email and password (the owner's dashboard session) */
        post: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description seconds */
                            expires_in: number;
                            token: string;
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description INVALID_CREDENTIALS */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Register the legal identity; the rail issues the CVU and an alias (D10) */
        post: {
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
                        legal_name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ALREADY_ONBOARDED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Simulate an incoming crypto deposit and its off-ramp to ARS (credits the wallet, or fails with fail: true) */
        post: {
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
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount_ars: string | null;
                            crypto_deposit_id: string;
                            offramp_id: string;
                            status: "completed" | "failed";
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ONBOARDING_INCOMPLETE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Credit the caller's CVU from an account at another bank */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        amount_ars: number;
                        from_cbu?: string;
                        from_legal_id?: string;
                        from_name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
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
                            direction: "credit" | "debit";
                            from: string;
                            fromLegalId: string;
                            fromName: string;
                            id: string;
                            status: string;
                            to: string;
                            toLegalId: string;
                            toName: string;
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ONBOARDING_INCOMPLETE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Set the caller's KYC status */
        post: {
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
                /** @description Default Response */
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
                /** @description INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ONBOARDING_INCOMPLETE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** The policy limits of the user (server defaults when none are stored) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                            /** @description CBU, CVU or alias; when non-empty, other destinations need approval */
                            whitelist_cbus: string[];
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Replace the limits (owner session, D13); omitted numeric fields are written as 0 (disabled) */
        put: {
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
                        /** @description CBU, CVU or alias; when non-empty, other destinations need approval */
                        whitelist_cbus?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Create a user (and its first API key, `default`) */
        post: {
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
                        name: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
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
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** @description the secret; shown only in this response */
                                key: string;
                                name: string;
                            };
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description EMAIL_TAKEN */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** The webhook (one per user), or null */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhook: {
                                active: boolean;
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            } | null;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Create or replace the webhook (owner session). The secret is write-only (≥ 16 characters) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        secret?: string;
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhook: {
                                active: boolean;
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                        };
                    };
                };
                /** @description INVALID_JSON, INVALID_REQUEST, MISSING_URL, INVALID_URL, SECRET_TOO_SHORT */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove the webhook (owner session) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description OWNER_SESSION_REQUIRED */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** The 50 most recent delivery attempts, failures included */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                attempt_count: number;
                                /** Format: date-time */
                                created_at: string;
                                event_id: string;
                                event_type: string;
                                id: string;
                                last_attempt_at: string | null;
                                last_error: string | null;
                                last_response_status: number | null;
                                next_attempt_at: string | null;
                                /** @description pending, delivered or failed */
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Send an event again as a new delivery (for receivers that were down) */
        post: {
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
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempt_count: number;
                            /** Format: date-time */
                            created_at: string;
                            event_id: string;
                            event_type: string;
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
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Send a signed `webhook.test` event now and report the attempt */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempt_count: number;
                            /** Format: date-time */
                            created_at: string;
                            event_id: string;
                            event_type: string;
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
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** Payout attempts, newest first (at most 100; `limit` and `cursor` page through more) */
        get: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_cursor: string | null;
                            withdraws: {
                                amount_ars: number;
                                api_key_id: string | null;
                                api_key_name: string | null;
                                approval_id: string | null;
                                /** Format: date-time */
                                created_at: string;
                                decision: string;
                                decision_reasons: string[];
                                destination: string;
                                destination_kind: "CBU" | "CVU" | "ALIAS";
                                failure_reason: string | null;
                                id: string;
                                idempotency_key: string;
                                note: string | null;
                                provider_transfer_id: string | null;
                                recipient_legal_id: string | null;
                                recipient_name: string | null;
                                /** Format: date-time */
                                resolved_at: string | null;
                                status: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Request a payout. Send Idempotency-Key; reuse it on retries (replays answer Idempotent-Replayed: true) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
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
                        destination_kind?: "CBU" | "CVU" | "ALIAS";
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            decision: "allow";
                            id: string;
                            /** @description "submitted" (or "approved" while the rail outcome is being reconciled) */
                            status: string;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approval_id: string;
                            /** @enum {string} */
                            decision: "require_approval";
                            /** @description seconds */
                            expires_in: number;
                            id: string;
                            reasons: string[];
                            /** @enum {string} */
                            status: "pending_approval";
                        };
                    };
                };
                /** @description MISSING_IDEMPOTENCY_KEY, INVALID_JSON, INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description IDEMPOTENCY_KEY_IN_USE */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description ONBOARDING_INCOMPLETE, PAYOUT_DENIED */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description WITHDRAW_FAILED */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description APPROVAL_NOT_CONFIGURED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
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
        /** One payout attempt */
        get: {
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
                /** @description Default Response */
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
                            /** Format: date-time */
                            created_at: string;
                            decision: string;
                            decision_reasons: string[];
                            destination: string;
                            destination_kind: "CBU" | "CVU" | "ALIAS";
                            failure_reason: string | null;
                            id: string;
                            idempotency_key: string;
                            note: string | null;
                            provider_transfer_id: string | null;
                            recipient_legal_id: string | null;
                            recipient_name: string | null;
                            /** Format: date-time */
                            resolved_at: string | null;
                            status: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
        /** Receipt: HTML voucher (default), JSON or PDF by Accept header or ?format=html|json|pdf */
        get: {
            parameters: {
                query?: {
                    format?: "html" | "json" | "pdf";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description UNAUTHENTICATED, TOKEN_EXPIRED, INVALID_TOKEN */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description USER_NOT_FOUND, NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RATE_LIMIT_EXCEEDED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description machine-readable code */
                            error: string;
                            /** @description human-readable explanation */
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
export type operations = Record<string, never>;
