// One transaction, two ways in: a Prisma transaction client for the small, structured writes
// (toolkits, cases) and the raw `pg` client of the very same connection for bulk rows. Bulk rows
// do not go through Prisma: it keeps its recent queries with their parameters in memory, and one
// batch of trajectories is megabytes of parameters.
//
// How: a private pool of ONE connection to the database `db` was made for, and a Prisma client
// over it. Prisma's interactive transaction checks that connection out (BEGIN … COMMIT on it);
// the pool's "acquire" event hands us the same client object, so statements sent on it are part
// of the transaction, queued in order with Prisma's own.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { connectionStringOf, type Db } from "@/lib/db/client";
import { PrismaClient, type Prisma } from "@/lib/db/generated/client";

export type Tx = Prisma.TransactionClient;

export async function transactionWithDriver<T>(db: Db, fn: (tx: Tx, conn: pg.ClientBase) => Promise<T>, opts: { timeout: number; maxWait: number }): Promise<T> {
  const url = connectionStringOf(db);
  if (!url) throw new Error("transactionWithDriver: this Prisma client was not made by createPrisma (its database URL is unknown)");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  let conn: pg.PoolClient | null = null;
  pool.on("acquire", (c) => (conn = c));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  try {
    return await prisma.$transaction(async (tx) => {
      if (!conn) throw new Error("transactionWithDriver: the transaction's connection was not seen");
      return fn(tx, conn);
    }, opts);
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}
