import { raw } from 'hono/html';
import type { IssuanceWarning } from '../../../core/credentials/conformity-warnings.ts';
import type { toCredentialResponse } from '../../credentials/schemas.ts';

export type CredentialView = ReturnType<typeof toCredentialResponse>;

/** A credential's current status words from its status entries (revoked wins over suspended). */
export const statusWords = (view: CredentialView) => {
  const set = (purpose: string) => view.statusEntries.some((e) => e.statusPurpose === purpose && e.value);
  if (set('revocation')) return 'Revoked';
  if (set('suspension')) return 'Suspended';
  return 'Active';
};

/**
 * What a person needs of an issued credential: its facts, the verify link with its QR code, the decryption
 * key (once encrypted) with a copy button, and any publishing or conformity warnings.
 */
export const CredentialFacts = (props: { view: CredentialView; qrSvg: string; warnings?: IssuanceWarning[] }) => {
  const { view } = props;
  return (
    <>
      {props.warnings && props.warnings.length > 0 ? (
        <section class="notice warn" aria-labelledby="warnings-title">
          <h2 id="warnings-title">Warnings</h2>
          <ul>
            {props.warnings.map((w) => (
              <li>
                <strong>{w.code}</strong>: {w.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <dl class="facts">
        <dt>Name</dt>
        <dd>{view.name ?? '—'}</dd>
        <dt>Type</dt>
        <dd>{`${view.credentialType} ${view.version}`}</dd>
        <dt>Status</dt>
        <dd id="credential-status">{statusWords(view)}</dd>
        <dt>Subject</dt>
        <dd>{view.subjectName ?? view.subjectId ?? '—'}</dd>
        <dt>Issuer</dt>
        <dd>{view.issuerName ? `${view.issuerName} (${view.issuerDid})` : view.issuerDid}</dd>
        <dt>Valid</dt>
        <dd>{`${view.validFrom ?? '—'} to ${view.validUntil ?? '—'}`}</dd>
        <dt>Stored copy</dt>
        <dd>
          <a href={view.storageUri}>{view.storageUri}</a>
        </dd>
        <dt>Published</dt>
        <dd>{view.isPublished ? (view.resolverUri ?? 'yes') : 'no'}</dd>
      </dl>
      <h2>Verify</h2>
      <p>
        <a id="verify-link" href={view.verifyUrl}>Open it on the verify page</a>
      </p>
      <div class="qr" role="img" aria-label="QR code of the verify link">{raw(props.qrSvg)}</div>
      {view.decryptionKey ? (
        <>
          <h2>Decryption key</h2>
          <p class="hint">The stored copy is encrypted. Whoever verifies it needs this key: share it only with them.</p>
          <p class="secret" id="decryption-key">{view.decryptionKey}</p>
          <button type="button" class="secondary" data-copy="decryption-key">Copy the key</button>
          <p id="decryption-key-status" role="status" class="hint"></p>
        </>
      ) : null}
    </>
  );
};
