// Brand resources and branding (docs/resources.md, docs/branding.md): the files and copy the
// program's partners download in the portal and the embed, in the order they see them; and
// the logo, accent colour and own host name their pages show.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';
import { dateTime } from '../../common/format.js';
import { fileSize } from '../../common/file-size.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Empty, Show, Table, type Column } from '../../common/ui.js';
import { t } from './words.js';

type Resource = Answer<'/v1/resources'>['data'][number];
type Brand = Answer<'/v1/program/branding'>['data']['attributes'];

/** A file's kind in words, by its media type: the part after the slash names the key (types.png, types.pdf). */
const typeName = (mediaType: string | null | undefined): string => {
  const sub = (mediaType ?? '').split('/')[1]?.replace('+xml', '') ?? '';
  return t(`types.${sub as 'png'}`, { defaultValue: t('file') });
};

const loadAll = async (signal: AbortSignal) => {
  const [resources, brand] = await Promise.all([api.GET('/v1/resources', { signal }), api.GET('/v1/program/branding', { signal })]);
  return { resources: resources.data, brand: brand.data.attributes };
};

export function Resources() {
  const loaded = useLoad(loadAll, 'resources');
  return (
    <section>
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <Show loaded={loaded}>
        {({ resources, brand }) => (
          <>
            <Upload done={loaded.reload} />
            <AddCopy done={loaded.reload} />
            <ResourceList resources={resources} changed={loaded.reload} />
            <Branding brand={brand} images={resources.filter((r) => r.attributes.media_type?.startsWith('image/'))} done={loaded.reload} />
          </>
        )}
      </Show>
    </section>
  );
}

function Upload({ done }: { done: () => void }) {
  const [saved, setSaved] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setSaved(false);
    const file = form.get('file') as File;
    await api.POST('/v1/resources/files', {
      params: { query: { title: text(form, 'title'), file_name: file.name } },
      // The file itself is the body: its bytes, which the collector reads its type from.
      body: file as unknown as string,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    el.reset();
    setSaved(true);
    done();
  });
  return (
    <form class="panel" onSubmit={onSubmit} aria-labelledby="upload-title">
      <h2 id="upload-title">{t('upload')}</h2>
      <label>
        {t('titleLabel')}
        <input name="title" required maxLength={200} />
      </label>
      <label>
        {t('file')}
        <input
          name="file"
          type="file"
          required
          accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml,application/pdf,application/zip"
        />
      </label>
      <Saving error={error} done={saved && t('uploaded')} busy={busy} label={t('uploadButton')} />
    </form>
  );
}

function AddCopy({ done }: { done: () => void }) {
  const [saved, setSaved] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setSaved(false);
    await api.POST('/v1/resources/copy', { body: { title: text(form, 'title'), body: text(form, 'body') } });
    el.reset();
    setSaved(true);
    done();
  });
  return (
    <form class="panel" onSubmit={onSubmit} aria-labelledby="copy-title">
      <h2 id="copy-title">{t('addCopy')}</h2>
      <label>
        {t('titleLabel')}
        <input name="title" required maxLength={200} />
      </label>
      <label>
        {t('copyText')}
        <textarea name="body" required maxLength={10000} rows={4} />
      </label>
      <Saving error={error} done={saved && t('added')} busy={busy} label={t('addCopy')} />
    </form>
  );
}

function ResourceList({ resources, changed }: { resources: Resource[]; changed: () => void }) {
  const [deleting, setDeleting] = useState<Resource | null>(null);
  const move = async (from: number, to: number) => {
    const ids = resources.map((r) => r.id);
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    await api.POST('/v1/resources/order', { body: { ids } });
    changed();
  };
  const columns: Column<Resource>[] = [
    { label: t('titleLabel'), cell: (r) => r.attributes.title },
    {
      label: t('what'),
      cell: (r) =>
        r.attributes.kind === 'copy' ? (
          <span>{r.attributes.body}</span>
        ) : (
          `${typeName(r.attributes.media_type)}, ${fileSize(r.attributes.size)}`
        ),
    },
    { label: t('addedAt'), cell: (r) => dateTime(r.attributes.created_at), minor: true },
    {
      label: t('actions'),
      cell: (r) => {
        const at = resources.indexOf(r);
        return (
          <span class="buttons">
            {r.attributes.kind === 'file' ? (
              <a class="button-link" href={`/v1/resources/${encodeURIComponent(r.id)}/file`} download>
                {t('download')}
                <span class="visually-hidden"> {r.attributes.title}</span>
              </a>
            ) : (
              <CopyButton text={r.attributes.body ?? ''} label={t('copy')} />
            )}
            <button type="button" class="secondary" disabled={at === 0} onClick={() => move(at, at - 1)}>
              {t('up')}
              <span class="visually-hidden"> {r.attributes.title}</span>
            </button>
            <button type="button" class="secondary" disabled={at === resources.length - 1} onClick={() => move(at, at + 1)}>
              {t('down')}
              <span class="visually-hidden"> {r.attributes.title}</span>
            </button>
            <button type="button" class="danger" onClick={() => setDeleting(r)}>
              {t('delete')}
              <span class="visually-hidden"> {r.attributes.title}</span>
            </button>
          </span>
        );
      },
    },
  ];
  return (
    <>
      <h2>{t('yours')}</h2>
      {resources.length === 0 ? (
        <Empty title={t('none')}>{t('noneText')}</Empty>
      ) : (
        <Table caption={t('title')} columns={columns} rows={resources} />
      )}
      {deleting && (
        <Confirm
          title={t('deleteTitle', { title: deleting.attributes.title })}
          confirm={t('delete')}
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/resources/{id}', { params: { path: { id: deleting.id } } });
            setDeleting(null);
            changed();
          }}
        >
          <p>{t('deleteText')}</p>
        </Confirm>
      )}
    </>
  );
}

function Branding({ brand, images, done }: { brand: Brand; images: Resource[]; done: () => void }) {
  const [saved, setSaved] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setSaved(false);
    const or = (name: string) => text(form, name).trim() || null;
    await api.PATCH('/v1/program/branding', { body: { logo_id: or('logo_id'), accent: or('accent'), host: or('host') } });
    setSaved(true);
    done();
  });
  return (
    <form class="panel" onSubmit={onSubmit} aria-labelledby="branding-title">
      <h2 id="branding-title">{t('branding')}</h2>
      <p>{t('brandingText')}</p>
      <label>
        {t('logo')}
        {/* Uncontrolled (selected, defaultValue): a refused save keeps what the owner typed. */}
        <select name="logo_id">
          <option value="">{t('noLogo')}</option>
          {images.map((r) => (
            <option value={r.id} selected={r.id === brand.logo_id}>
              {r.attributes.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('accent')}
        <input
          name="accent"
          defaultValue={brand.accent ?? ''}
          placeholder="#0b6b78"
          pattern="#[0-9a-fA-F]{6}"
          aria-describedby="accent-help"
        />
      </label>
      <p id="accent-help" class="hint">
        {t('accentHint')}
      </p>
      <label>
        {t('host')}
        <input name="host" defaultValue={brand.host ?? ''} placeholder="partners.example.com" aria-describedby="host-help" />
      </label>
      <p id="host-help" class="hint">
        {t('hostHint')}
      </p>
      <Saving error={error} done={saved} busy={busy} label={t('saveBranding')} />
    </form>
  );
}
