// The app's version: package.json's, plus the commit when the start script knows it.
import pkg from "@/package.json" with { type: "json" };

export const APP_VERSION = `${pkg.version}${process.env.TOOLEMU_COMMIT ? `+${process.env.TOOLEMU_COMMIT}` : ""}`;
