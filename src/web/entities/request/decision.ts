import type { AuthorizationRequest } from '../../../shared/contract/index.ts';

export type Decision = 'approve' | 'reject';

export interface DecisionTarget {
  request: AuthorizationRequest;
  decision: Decision;
}
