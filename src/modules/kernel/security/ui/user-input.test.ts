// The user forms' inputs: blank profile fields left out or cleared, emails trimmed, an empty password kept.
import { describe, expect, it } from 'vitest';
import { createUserInput, updateUserInput } from './user-input.ts';

describe('user input', () => {
  it('leaves a blank display name and email out of a new user, and trims the email', () => {
    const base = { username: 'ada', password: 'correct horse battery', mustChangePassword: true };
    expect(createUserInput({ ...base, profile: { displayName: ' ', email: '' } })).toEqual(base);
    expect(createUserInput({ ...base, profile: { displayName: 'Ada L', email: ' ada@example.com ' } })).toEqual({
      ...base,
      displayName: 'Ada L',
      email: 'ada@example.com',
    });
  });

  it('clears a blank display name and email on an existing user, and keeps the password when none is typed', () => {
    expect(updateUserInput('u1', { profile: { displayName: '', email: ' ' }, disabled: true, password: '' })).toEqual({
      id: 'u1',
      displayName: null,
      email: null,
      disabled: true,
    });
    expect(
      updateUserInput('u1', {
        profile: { displayName: 'Ada', email: 'a@b.c ' },
        disabled: false,
        password: 'x'.repeat(12),
      }),
    ).toEqual({ id: 'u1', displayName: 'Ada', email: 'a@b.c', disabled: false, password: 'x'.repeat(12) });
  });
});
