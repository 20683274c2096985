// next-auth configuration: email + password (credentials provider), JWT sessions.
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db/client";
import { authenticate } from "./authenticate";
import { isRole } from "./permissions";

export const SESSION_MAX_AGE_S = 12 * 60 * 60;

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/signin", error: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const result = await authenticate(db(), credentials?.email ?? "", credentials?.password ?? "");
        // next-auth passes a thrown message back to the sign-in form as `error`.
        if (!result.ok) throw new Error(result.error);
        return result.user;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.role = (user as { role?: string }).role;
      }
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
};
