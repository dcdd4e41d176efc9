/** What sign-out tells: ended on the server only when the server said so. */
export function signOutNotice(confirmed: boolean) {
  return confirmed
    ? { id: 'signed-out', title: 'Signed out', message: 'Your session was ended on the server.' }
    : {
        id: 'signed-out',
        color: 'yellow',
        title: 'Signed out here only',
        message:
          'The server could not be reached to end the session. It was forgotten in this browser and ends on the server at its deadline.',
      };
}
