/** SPEC §3: the demo accounts, shown on the login page in demo mode. Other checks rely on these exact values. */
export const DEMO_ACCOUNTS = [
  {
    userName: 'DEMO\\admin',
    password: 'Admin#2026',
    role: 'Admin',
    security: ['Read', 'Write'],
    accounts: ['Read', 'Write'],
  },
  {
    userName: 'DEMO\\helpdesk',
    password: 'Helpdesk#2026',
    role: 'Helpdesk',
    security: ['Read', 'Write'],
    accounts: ['Contain'],
  },
  { userName: 'DEMO\\auditor', password: 'Auditor#2026', role: 'Auditor', security: ['Read'], accounts: [] },
  { userName: 'DEMO\\operator', password: 'Operator#2026', role: 'Operator', security: [], accounts: [] },
] as const;
