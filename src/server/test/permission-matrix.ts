import { type Endpoint, type EndpointName, endpoints } from '../../shared/contract/index.ts';

/*
 * The permission matrix: every endpoint of the catalogue × every kind of caller → what the access rule answers,
 * worked out from the contract alone (never from the service's own check). docs/security.md shows it as a table,
 * and permission-matrix.test.ts both checks that table and calls every cell against the real service.
 */

export type CallerName =
  | 'none'
  | 'enrolment'
  | 'reader'
  | 'operator'
  | 'helpdesk'
  | 'security'
  | 'accounts'
  | 'api'
  | 'device';

export interface Caller {
  name: CallerName;
  /** The column's heading in the table. */
  label: string;
  credential: 'none' | 'session' | 'device';
  security: readonly string[];
  accounts: readonly string[];
  /** A writer's first sign-in without a second factor: it may only add one. */
  enrolmentOnly?: boolean;
}

export const CALLERS: readonly Caller[] = [
  { name: 'none', label: 'No session', credential: 'none', security: [], accounts: [] },
  {
    name: 'enrolment',
    label: 'Enrolment only',
    credential: 'session',
    security: ['Read', 'Write'],
    accounts: [],
    enrolmentOnly: true,
  },
  { name: 'reader', label: 'Reader (Security Read)', credential: 'session', security: ['Read'], accounts: [] },
  { name: 'operator', label: 'Operator (none)', credential: 'session', security: [], accounts: [] },
  {
    name: 'helpdesk',
    label: 'Helpdesk (Security Read+Write, Accounts Contain)',
    credential: 'session',
    security: ['Read', 'Write'],
    accounts: ['Contain'],
  },
  {
    name: 'security',
    label: 'Security admin (Security Read+Write)',
    credential: 'session',
    security: ['Read', 'Write'],
    accounts: [],
  },
  {
    name: 'accounts',
    label: 'Accounts admin (Accounts Read+Write)',
    credential: 'session',
    security: [],
    accounts: ['Read', 'Write'],
  },
  {
    name: 'api',
    label: 'API account (Security Read+Write)',
    credential: 'session',
    security: ['Read', 'Write'],
    accounts: [],
  },
  { name: 'device', label: 'Device', credential: 'device', security: [], accounts: [] },
];

/** Let through (`pass`, `contain`: by Contain, for people who hold no Accounts permission only), or refused. */
export type Answer = 'pass' | 'contain' | 401 | 403;

export function expectedAnswer(endpoint: Endpoint, caller: Caller): Answer {
  const { access } = endpoint;
  if (access.kind === 'anonymous') return 'pass';
  if (caller.credential === 'none') return access.kind === 'session-or-enrollment-code' ? 'pass' : 401;
  if (caller.credential === 'device') {
    return access.kind === 'device' ||
      access.kind === 'session-or-device' ||
      access.kind === 'session-or-enrollment-code'
      ? 'pass'
      : 401;
  }
  if (access.kind === 'device') return 401;
  let answer: Answer = 'pass';
  if (access.kind === 'permission') {
    const held = (access.entity === 'Security' ? caller.security : caller.accounts).includes(access.permission);
    if (!held && !(access.containment && caller.accounts.includes('Contain'))) return 403;
    if (!held) answer = 'contain';
  }
  if (caller.enrolmentOnly && !endpoint.duringEnrolment) return 403;
  return answer;
}

const CELL: Record<Answer, string> = { pass: '✓', contain: '✓ C', 401: '401', 403: '403' };

/** The matrix as the Markdown table docs/security.md holds. */
export function matrixTable(): string {
  const names = Object.keys(endpoints) as EndpointName[];
  const header = ['Endpoint', ...CALLERS.map((caller) => caller.label)];
  const rows = names.map((name) => {
    const endpoint: Endpoint = endpoints[name];
    const what = `\`${endpoint.method} ${endpoint.path}\`${endpoint.stepUp ? ' (step-up)' : ''}`;
    return [what, ...CALLERS.map((caller) => CELL[expectedAnswer(endpoint, caller)])];
  });
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const MATRIX_START =
  '<!-- permission matrix: generated from the contract by src/server/test/permission-matrix.ts -->';
export const MATRIX_END = '<!-- end of the permission matrix -->';
