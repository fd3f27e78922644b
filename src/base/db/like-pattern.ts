// LIKE/ILIKE patterns from user text: its own wildcards (`%`, `_`) and the escape character taken literally.
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Matches values that contain `text` anywhere. */
export const containing = (text: string) => `%${escapeLike(text)}%`;

/** Matches values that start with `text`. */
export const startingWith = (text: string) => `${escapeLike(text)}%`;

/** A glob (`*` any run of characters, everything else literal) as a LIKE pattern. */
export const globToLike = (glob: string) => escapeLike(glob).replace(/\*/g, '%');
