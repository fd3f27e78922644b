export const TOKENS_PATH = '/account/tokens';
