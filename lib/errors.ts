/** An error whose message is safe and useful to show the user, with the HTTP status it maps to. */
export class AppError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 = 400,
  ) {
    super(message);
  }
}
