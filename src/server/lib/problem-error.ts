import type { ProblemKind } from '../../shared/contract/index.ts';

/**
 * A failure the caller can act on, carried from the domain to the one error handler,
 * which renders it as RFC 9457 problem details.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly kind: ProblemKind;
  readonly title: string;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    kind: ProblemKind,
    title: string,
    detail: string,
    options: { extensions?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = status;
    this.kind = kind;
    this.title = title;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string, id: number | string) =>
  new ProblemError(404, 'not-found', 'Not found', `${what} ${id} does not exist.`);
