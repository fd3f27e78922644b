// The signed-in user's own account: who am I and what may I do, failed sign-ins with my name from unfamiliar
// addresses, and changing my password (which also lifts the
// must-change-password mark and ends my other sessions).
import { z } from 'zod';
import { globalPermissions, moduleProcedure, requireSignedInUser, router } from '@/modules/kernel/access/index.ts';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { loadEffectiveGrants } from './effective-grants.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { newPasswordSchema, refuseWeakPassword } from './password-policy.ts';
import { readCookie, SESSION_COOKIE, sessionDigest } from './sessions.ts';
import { unfamiliarFailures } from './sign-in-throttle.ts';

const procedure = moduleProcedure('security');

export const accountRouter = router({
  me: procedure('authenticated')
    .meta({
      allowedBeforePasswordChange: true,
      openapi: {
        method: 'GET',
        path: '/account',
        tags: ['account'],
        summary: 'The signed-in user, and the permissions they hold everywhere',
      },
    })
    .input(z.void())
    .output(
      z.object({
        id: z.string(),
        username: z.string(),
        actor: z.string(),
        provider: z.string(),
        mustChangePassword: z.boolean(),
        globalPermissions: z.array(z.string()),
        grants: z.array(
          z.object({ scope: z.string(), scopeId: z.string().nullable(), permissions: z.array(z.string()) }),
        ),
        unfamiliarSignInFailures: z
          .object({ count: z.number(), since: z.string(), lockedUntil: z.string().nullable() })
          .nullable()
          .describe(
            'Failed sign-ins with your username from addresses you have not signed in from, since the window began; ' +
              'while lockedUntil is set they are held back (your own addresses are not)',
          ),
      }),
    )
    .query(async ({ ctx }) => {
      const userId = requireSignedInUser(ctx.request);
      const user = await ctx.runtime.prisma.user.findUniqueOrThrow({ where: { id: userId } });
      const grants = await loadEffectiveGrants(ctx.runtime.prisma, userId);
      return {
        id: user.id,
        username: user.username,
        actor: ctx.request.actor.name,
        provider: user.providerId,
        mustChangePassword: user.mustChangePassword,
        globalPermissions: [...globalPermissions(grants)].sort(),
        grants: grants.map((grant) => ({
          scope: grant.scope.kind,
          scopeId: grant.scope.kind === 'GLOBAL' ? null : grant.scope.id,
          permissions: [...grant.permissions],
        })),
        unfamiliarSignInFailures: await unfamiliarFailures(ctx.runtime.prisma, user.username),
      };
    }),

  changePassword: procedure('authenticated')
    .meta({
      allowedBeforePasswordChange: true,
      openapi: {
        method: 'POST',
        path: '/account/password',
        tags: ['account'],
        summary: 'Change your own password (local accounts)',
      },
    })
    .input(
      z.object({
        currentPassword: z.string().min(1).max(1_000),
        newPassword: newPasswordSchema,
        dryRun: z.boolean().default(false),
      }),
    )
    .output(z.object({ changed: z.boolean(), otherSessionsEnded: z.number(), dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const userId = requireSignedInUser(ctx.request);
      const { prisma } = ctx.runtime;
      const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
      if (!user.passwordHash || !(await verifyPassword(input.currentPassword, user.passwordHash))) {
        throw new ProblemError(
          validationProblem(
            [{ field: 'currentPassword', message: 'is not right' }],
            'The current password is not right.',
          ),
        );
      }
      await refuseWeakPassword(input.newPassword, user.username, 'newPassword');
      if (input.newPassword === input.currentPassword) {
        throw new ProblemError(
          validationProblem(
            [{ field: 'newPassword', message: 'must differ from the current password' }],
            'Choose a password different from the current one.',
          ),
        );
      }
      const passwordHash = input.dryRun ? undefined : await hashPassword(input.newPassword);
      const currentSession = readCookie(ctx.http.headers, SESSION_COOKIE);
      const otherSessions = { userId, ...(currentSession ? { id: { not: sessionDigest(currentSession) } } : {}) };
      const ended = await audited(
        prisma,
        ctx.request,
        { action: 'account.password-change', target: user.username, dryRun: input.dryRun },
        async (tx) => {
          // A dry run checks everything above and says how many other sessions would end.
          if (!passwordHash) return { result: await tx.session.count({ where: otherSessions }) };
          await tx.user.update({
            where: { id: userId },
            data: { passwordHash, mustChangePassword: false, updatedAt: new Date() },
          });
          const { count } = await tx.session.deleteMany({ where: otherSessions });
          return { result: count };
        },
      );
      return { changed: !input.dryRun, otherSessionsEnded: ended, dryRun: input.dryRun };
    }),
});
