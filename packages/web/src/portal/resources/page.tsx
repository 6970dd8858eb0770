// The program's brand resources for its partner (docs/resources.md): images with a preview,
// documents to download, and copy to put on the clipboard. A lazily loaded page of its own,
// with its own catalogue (locales/), a part of the portal's.

import { api } from '../../common/api.js';
import { fileSize } from '../../common/file-size.js';
import type { Catalogues } from '../../common/i18n.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Empty, Show } from '../../common/ui.js';
import { part } from '../language.js';
import { usePortal } from '../session.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

const t = part('resources', CATALOGUES);

const typeName = (type: string | null): string =>
  type?.startsWith('image/') ? t('types.image') : type === 'application/pdf' ? t('types.pdf') : t('types.zip');

export function Resources() {
  const { current } = usePortal();
  const id = current?.id ?? '';
  const loaded = useLoad(
    (signal) => api.GET('/v1/portal/partnerships/{id}/resources', { params: { path: { id } }, signal }),
    `portal-resources ${id}`,
  );
  return (
    <section>
      <h1>{t('title')}</h1>
      <p>{t('intro', { program: current?.attributes.program_name ?? '' })}</p>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={t('none')}>{t('noneText')}</Empty>
          ) : (
            <ul class="resources">
              {answer.data.map((r) => {
                const a = r.attributes;
                const file = `/v1/portal/partnerships/${encodeURIComponent(id)}/resources/${encodeURIComponent(r.id)}/file`;
                return (
                  <li class="panel">
                    <h2>{a.title}</h2>
                    {a.kind === 'copy' ? (
                      <>
                        <p class="copy">{a.body}</p>
                        <CopyButton text={a.body ?? ''} label={t('copy')} />
                      </>
                    ) : (
                      <>
                        {a.media_type?.startsWith('image/') && <img src={file} alt="" />}
                        <p class="hint">
                          {typeName(a.media_type)}, {fileSize(a.size)}
                        </p>
                        <a class="button-link" href={file} download={a.file_name ?? true}>
                          {t('download')}
                          <span class="visually-hidden"> {a.title}</span>
                        </a>
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
          )
        }
      </Show>
    </section>
  );
}
