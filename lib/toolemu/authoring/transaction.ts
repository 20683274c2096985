// The authoring functions take the Prisma client or a transaction client (a reviewer's accept in
// lib/authoring writes the item's status and the new toolkit in one transaction): they open a
// transaction only when they were not given one.
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

export type DbOrTx = Db | Prisma.TransactionClient;
export type Tx = Prisma.TransactionClient;

export function inTransaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return "$transaction" in db ? (db as Db).$transaction(fn) : fn(db);
}
