/** A problem with an `npm run school` command or its input; printed as one line. */
export class SchoolCommandError extends Error {
  override name = "SchoolCommandError";
}
