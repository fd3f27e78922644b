// A user's display name and email, the fields the create and change forms share.
import { TextInput } from '@mantine/core';
import type { Profile } from './user-input.ts';

export function ProfileFields({
  profile,
  onChange,
  errorOf,
}: {
  profile: Profile;
  onChange: (next: Profile) => void;
  errorOf: (field: string) => string | undefined;
}) {
  return (
    <>
      <TextInput
        label="Display name"
        value={profile.displayName}
        error={errorOf('displayName')}
        onChange={(event) => onChange({ ...profile, displayName: event.currentTarget.value })}
      />
      <TextInput
        label="Email"
        value={profile.email}
        error={errorOf('email')}
        onChange={(event) => onChange({ ...profile, email: event.currentTarget.value })}
      />
    </>
  );
}
