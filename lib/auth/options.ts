// next-auth configuration: email + password (credentials provider), JWT sessions that can be
// revoked (lib/auth/sessions.ts).
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db/client";
import { authenticate } from "./authenticate";
import { clientAddress } from "./client-address";
import { isRole } from "./permissions";
import { loadSessionUser, newSessionId, revokeSession, SESSION_MAX_AGE_S, sessionClaimsOf } from "./sessions";

export { SESSION_MAX_AGE_S };

const SESSION_ENDED = "This session was ended (signed out, password or role changed, or account disabled).";

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/signin", error: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const result = await authenticate(db(), credentials?.email ?? "", credentials?.password ?? "", { ip: clientAddress(req?.headers) });
        // next-auth passes a thrown message back to the sign-in form as `error`.
        if (!result.ok) throw new Error(result.error);
        return result.user;
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        // A sign-in: a new session, under the user's current session version.
        const u = user as { id: string; role?: string; sessionVersion?: number };
        token.sub = u.id;
        token.role = u.role;
        token.sv = u.sessionVersion ?? 0;
        token.sid = newSessionId();
        return token;
      }
      // A renewal (/api/auth/session): a revoked session is not renewed. Throwing makes
      // next-auth answer an empty session and clear the cookie.
      const claims = sessionClaimsOf(token);
      const current = claims && (await loadSessionUser(db(), claims));
      if (!current) throw new Error(SESSION_ENDED);
      token.role = current.role;
      token.name = current.name;
      token.email = current.email;
      return token;
    },
    session({ session, token }) {
      if (session.user) {
        (session.user as { id?: string }).id = token.sub;
        (session.user as { role?: unknown }).role = isRole(token.role) ? token.role : undefined;
      }
      return session;
    },
  },
  // A revoked session refused at renewal is expected, not an error worth a stack trace in the log.
  logger: {
    error(code, metadata) {
      if (code === "JWT_SESSION_ERROR" && (metadata as { message?: string } | undefined)?.message === SESSION_ENDED) return;
      console.error(`[next-auth][error][${code}]`, metadata);
    },
  },
  events: {
    // Signing out ends this session for good, not only in this browser: a copy of the cookie
    // (another tab's request in flight, a stolen cookie) is refused from now on.
    async signOut({ token }) {
      const claims = sessionClaimsOf(token as Record<string, unknown> | null);
      if (claims) await revokeSession(db(), claims);
    },
  },
};
