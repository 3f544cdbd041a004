/** The part of autocannon's API the bench uses (the package ships no types; @types/autocannon is for v7). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: unknown[];
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
  }
  type Instance = EventEmitter & PromiseLike<unknown> & { stop(): void };
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
