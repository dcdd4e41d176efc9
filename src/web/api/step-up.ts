/**
 * Step-up in place: when a call answers 403 step-up-required, the client asks whoever registered here (the signed-in
 * layout's dialog) to have the person prove a second factor, then sends the same call again. Kept apart from the
 * dialog so the client never imports the interface.
 */
let prompt: (() => Promise<boolean>) | null = null;

/** Registers the dialog; returns how to unregister it. */
export function handleStepUp(ask: () => Promise<boolean>): () => void {
  prompt = ask;
  return () => {
    if (prompt === ask) prompt = null;
  };
}

/** Asks the person for a second factor; false when nobody can ask (signed out) or they gave up. */
export function askForStepUp(): Promise<boolean> {
  return prompt ? prompt() : Promise.resolve(false);
}
