// `npm run build`: next build, stamped so that `npm start` knows the build matches the sources.
import { buildIfNeeded } from "./lib/build";
import { fail, info } from "./lib/output";

try {
  buildIfNeeded(info, { force: true });
} catch (e) {
  fail(e);
  process.exit(1);
}
