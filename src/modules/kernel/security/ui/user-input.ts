// What the user forms send: the create and update inputs built from the fields as typed. Pure, so the unit test pins
// the rules: an empty display name or email is left out of a new user and cleared on an existing one, an email is
// trimmed, and an empty reset password keeps the old one.
export interface Profile {
  readonly displayName: string;
  readonly email: string;
}

export function createUserInput(fields: {
  readonly username: string;
  readonly password: string;
  readonly mustChangePassword: boolean;
  readonly profile: Profile;
}) {
  const { username, password, mustChangePassword, profile } = fields;
  return {
    username,
    password,
    mustChangePassword,
    ...(profile.displayName.trim() ? { displayName: profile.displayName } : {}),
    ...(profile.email.trim() ? { email: profile.email.trim() } : {}),
  };
}

export function updateUserInput(
  id: string,
  fields: { readonly profile: Profile; readonly disabled: boolean; readonly password: string },
) {
  const { profile, disabled, password } = fields;
  return {
    id,
    displayName: profile.displayName.trim() ? profile.displayName : null,
    email: profile.email.trim() ? profile.email.trim() : null,
    disabled,
    ...(password ? { password } : {}),
  };
}
