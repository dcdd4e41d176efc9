import type { Plugin } from 'vite';
import { moduleTransform } from './module-transform.ts';

/** Mantine's `useId`, which every labelled input, checkbox and alert of the dashboard calls. */
export const MODULE = /@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;

const RANDOM_AFTER_MOUNT = `	const [uuid, setUuid] = useState(\`mantine-\${reactId.replace(/:/g, "")}\`);
	const hasInitializedRef = useRef(false);
	useIsomorphicEffect(() => {
		if (hasInitializedRef.current) return;
		hasInitializedRef.current = true;
		setUuid(randomId());
	}, []);
	if (typeof staticId === "string") return staticId;
	return uuid;`;

const REACT_ID = `	if (typeof staticId === "string") return staticId;
	return \`mantine-\${reactId.replace(/:/g, "")}\`;`;

/**
 * Mantine's `useId` starts from React's id and, in a layout effect after the first commit, swaps it for a random one.
 * That state change is synchronous work for React, which must first run every effect of the page just committed:
 * the first page's effects (its subscriptions, requests and the live stream) and a second render of every component
 * with an id were pulled into the commit's task, one long task on a phone's CPU. React's id is already unique within
 * its root, and the dashboard has one root whose ids nothing else shares (the page outlines in index.html are
 * replaced, not hydrated), so the id stays React's. Should Mantine change the module, the build stops here rather
 * than shipping it unchanged unnoticed.
 */
export function keepReactIds(code: string): string {
  if (!code.includes(RANDOM_AFTER_MOUNT)) {
    throw new Error('stable-mantine-ids: Mantine changed use-id.mjs; look at it again');
  }
  return code.replace(RANDOM_AFTER_MOUNT, REACT_ID);
}

export function stableMantineIds(): Plugin {
  return moduleTransform('stable-mantine-ids', MODULE, keepReactIds);
}
