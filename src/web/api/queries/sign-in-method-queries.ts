import { endpoints } from '../../../shared/contract/index.ts';
import { endpointMutation, endpointQuery } from './endpoint-query.ts';

/** The signed-in person's own sign-in methods (the Sign-in methods page). */
export const signInMethodQueries = {
  all: ['sign-in-methods'] as const,
  own: endpointQuery(endpoints.ownSignInMethods, () => ({
    queryKey: ['sign-in-methods', 'own'] as const,
    options: { staleTime: 0 },
  })),
};

export const renamePasskey = endpointMutation(endpoints.renamePasskey, (input: { id: number; name: string }) => ({
  params: { id: input.id },
  body: { Name: input.name },
}));
export const removePasskey = endpointMutation(endpoints.removePasskey, (id: number) => ({ params: { id } }));
export const newRecoveryCodes = endpointMutation(endpoints.newRecoveryCodes, () => ({}));
export const resetSignInMethods = endpointMutation(endpoints.resetSignInMethods, (id: number) => ({ params: { id } }));
