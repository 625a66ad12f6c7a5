/** The part of Digital Bazaar's W3C Bitstring Status List client the tests call. */
declare module '@digitalbazaar/vc-bitstring-status-list' {
  export function checkStatus(options: {
    credential: Record<string, unknown>;
    documentLoader: (url: string) => Promise<{ document: Record<string, unknown> }>;
    suite?: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<{ verified: boolean; error?: Error; results: { verified: boolean; status: boolean; credentialStatus: Record<string, unknown> }[] }>;
}
