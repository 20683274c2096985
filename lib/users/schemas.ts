// Input schemas for user management, shared by server actions, the CLI and the forms.
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";

const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter a valid email address." }));

const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { message: `Use at least ${MIN_PASSWORD_LENGTH} characters.` })
  .max(200, { message: "Use at most 200 characters." });

const roleSchema = z.enum(ROLES, { message: `Role must be one of ${ROLES.join(", ")}.` });

export const createUserSchema = z.object({
  email: emailSchema,
  name: z.string().trim().min(1, { message: "Enter a name." }).max(120),
  role: roleSchema,
  password: passwordSchema,
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

export const changeRoleSchema = z.object({ userId: z.string().min(1), role: roleSchema });
export const resetPasswordSchema = z.object({ userId: z.string().min(1), password: passwordSchema });
export const setDisabledSchema = z.object({ userId: z.string().min(1), disabled: z.boolean() });
export const signOutUserSchema = z.object({ userId: z.string().min(1) });
