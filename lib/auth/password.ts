import bcrypt from "bcryptjs";

// Cost 10 keeps a sign-in quick on small machines; raise with BCRYPT_COST.
const COST = Number(process.env.BCRYPT_COST) || 10;

export const MIN_PASSWORD_LENGTH = 8;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return bcrypt.compare(plain, hash);
}
