import { PROBLEM_CONTENT_TYPE, Problem, type ProblemKind, problemKind } from '../../../shared/contract/index.ts';

/** Problem kinds of the service, plus what can go wrong before a problem arrives. */
export type ApiErrorKind = ProblemKind | 'network' | 'invalid-response' | 'unknown';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  title: string;
  detail?: string | undefined;
  errors?: { path: string; message: string }[] | undefined;
  retryAfterSeconds?: number | undefined;
  /** The problem as the service sent it, with its extension members (a second step's ticket and methods). */
  problem?: Problem | undefined;
  cause?: unknown;
}

/** The one error every API call rejects with: service problems, network failures and unexpected answers alike. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: { path: string; message: string }[];
  readonly retryAfterSeconds: number | undefined;
  readonly problem: Problem | undefined;

  constructor(init: ApiErrorInit) {
    super(init.detail ?? init.title, { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.problem = init.problem;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function kindFromStatus(status: number): ApiErrorKind {
  switch (status) {
    case 400:
    case 422:
      return 'validation';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 413:
      return 'payload-too-large';
    case 415:
      return 'unsupported-media-type';
    case 429:
      return 'too-many-requests';
    default:
      return status >= 500 ? 'internal' : 'unknown';
  }
}

function retryAfter(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Reads an error answer; servers other than ours may send plain text or HTML, which still becomes an ApiError. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const contentType = response.headers.get('Content-Type') ?? '';
  const base = {
    status: response.status,
    retryAfterSeconds: retryAfter(response),
  };
  if (contentType.includes(PROBLEM_CONTENT_TYPE) || contentType.includes('json')) {
    const body: unknown = await response.json().catch(() => null);
    const problem = Problem.safeParse(body);
    if (problem.success) {
      return new ApiError({
        ...base,
        kind: problemKind(problem.data.type) ?? kindFromStatus(response.status),
        title: problem.data.title,
        detail: problem.data.detail,
        errors: problem.data.errors,
        problem: problem.data,
      });
    }
  }
  return new ApiError({
    ...base,
    kind: kindFromStatus(response.status),
    title: response.statusText || `HTTP ${response.status}`,
  });
}
