/**
 * The sandbox's built-in demo content, used when no seed file is given (INTERFACES.md): four
 * official templates that together use every field type, marketplace listings in each listing
 * state, a private template with two versions and review requests. It is written as a seed file
 * so it goes through the same validation and storage as `--seed`.
 */
import type { SeedFile } from './seed'
import { sha256Hex } from './seed'
import { plainField } from '../shared/input-schema'

/** A creator who owns a listing the demo user can buy but not see among their own. */
export const DEMO_OTHER_CREATOR_ID = 900_001

const hash = (name: string) => `sha256:${sha256Hex(`skill-runner-demo:${name}`)}`
/** A fixed point in time (2025-03-03 09:00 UTC) so demo content looks the same on every start. */
const T0 = 1_741_000_000

type Field = NonNullable<
  NonNullable<SeedFile['officialTemplates']>[number]['schema']['fields']
>[number]

function field(key: string, label: string, type: string, extra: Partial<Field> = {}): Field {
  return { ...plainField(key, label, type), ...extra }
}

function columnsOf(fields: Field[]) {
  return fields.map((f, order) => ({ fieldKey: f.key, headerLabel: f.label ?? f.key, order }))
}

// ---- official templates -----------------------------------------------------------------------

const productFields: Field[] = [
  field('productName', 'Product name', 'string', {
    required: true,
    examples: ['Bamboo cutting board', 'Insulated water bottle'],
    inputHint: 'The name shoppers see, up to 80 characters.',
    businessHint: 'Used as the headline of the description.',
  }),
  field('category', 'Category', 'enum', {
    required: true,
    enumValues: ['Home', 'Kitchen', 'Garden', 'Outdoor', 'Toys'],
    inputHint: 'Pick one from the list.',
  }),
  field('keyFeatures', 'Key features', 'text', {
    multiValue: true,
    examples: ['Dishwasher safe; Made from FSC bamboo'],
    inputHint: 'One feature per line, or separate them with ";".',
    businessHint: 'The writer turns each feature into a benefit.',
  }),
  field('price', 'Price (EUR)', 'number', {
    required: true,
    examples: ['24.90'],
    inputHint: 'A number with a dot for decimals.',
  }),
  field('stockCount', 'Units in stock', 'integer', {
    examples: ['120'],
    inputHint: 'Whole number; leave empty when unknown.',
  }),
  field('launchDate', 'Launch date', 'date', {
    examples: ['2025-04-01'],
    inputHint: 'YYYY-MM-DD.',
  }),
  field('productPage', 'Product page', 'url', {
    examples: ['https://shop.example.com/p/bamboo-board'],
    inputHint: 'Full address starting with https://',
  }),
  field('ecoFriendly', 'Eco-friendly', 'boolean', {
    inputHint: 'TRUE or FALSE.',
    businessHint: 'Adds a sustainability paragraph when TRUE.',
  }),
  field('tone', 'Tone of voice', 'enum', {
    scope: 'run',
    required: true,
    enumValues: ['friendly', 'formal', 'playful'],
    inputHint: 'One tone for the whole run.',
  }),
]

const ticketFields: Field[] = [
  field('ticketId', 'Ticket ID', 'string', {
    required: true,
    examples: ['T-10432'],
    inputHint: 'The ID from your help desk.',
  }),
  field('customerEmail', 'Customer email', 'email', {
    required: true,
    examples: ['jane@example.com'],
    inputHint: 'Where the reply will go.',
  }),
  field('subject', 'Subject', 'string', { examples: ['Order arrived damaged'] }),
  field('body', 'Message', 'text', {
    required: true,
    inputHint: 'The full customer message.',
    businessHint: 'Keywords are drawn from this text.',
  }),
  field('channel', 'Channel', 'enum', {
    enumValues: ['email', 'chat', 'phone', 'social'],
    examples: ['email'],
  }),
  field('receivedOn', 'Received on', 'date', {
    examples: ['2025-03-02'],
    inputHint: 'YYYY-MM-DD.',
  }),
  field('isVip', 'VIP customer', 'boolean', { inputHint: 'TRUE or FALSE.' }),
  field('previousTickets', 'Previous tickets', 'integer', { examples: ['3'] }),
]

const digestFields: Field[] = [
  field('document', 'Document', 'file', {
    required: true,
    acceptedInputKinds: ['asset', 'url', 'text'],
    acceptedMimeTypes: ['application/pdf', 'text/plain', 'text/csv', 'application/octet-stream'],
    inputHint: 'A file next to the workbook (e.g. docs/report.pdf) or a web address.',
    businessHint: 'The sandbox reports size and SHA-256 and returns the file.',
  }),
  field('title', 'Title', 'string', { required: true, examples: ['Quarterly report Q1'] }),
  field('language', 'Language', 'enum', { enumValues: ['en', 'de', 'fr', 'es'], examples: ['en'] }),
  field('pageCount', 'Pages', 'integer', { examples: ['12'] }),
  field('sourceUrl', 'Source page', 'url', { examples: ['https://intranet.example.com/reports'] }),
  field('ownerEmail', 'Owner email', 'email', { examples: ['finance@example.com'] }),
  field('confidential', 'Confidential', 'boolean', { inputHint: 'TRUE or FALSE.' }),
  field('attachments', 'Attachments', 'file', {
    multiValue: true,
    acceptedInputKinds: ['asset', 'url'],
    inputHint: 'Extra files, separated by ";".',
  }),
]

const echoFields: Field[] = [
  field('message', 'Message', 'string', { required: true, examples: ['Hello from the sandbox'] }),
  field('details', 'Details', 'text', { inputHint: 'Any longer text; it comes back as a file.' }),
  field('sequence', 'Sequence number', 'integer', {
    examples: ['1'],
    inputHint: 'Any whole number.',
  }),
]

// ---- listings --------------------------------------------------------------------------------

const pressReleaseSchema = {
  fields: [
    field('headline', 'Headline', 'string', {
      required: true,
      examples: ['Acme opens a new plant'],
    }),
    field('draft', 'Draft text', 'text', { required: true, inputHint: 'The draft to polish.' }),
    field('audience', 'Audience', 'enum', {
      enumValues: ['press', 'investors', 'customers'],
      examples: ['press'],
    }),
    field('embargoDate', 'Embargo date', 'date', { examples: ['2025-05-01'] }),
  ],
}

const reviewMinerSchema = {
  fields: [
    field('reviewText', 'Review', 'text', { required: true }),
    field('stars', 'Stars', 'integer', { examples: ['4'], inputHint: '1 to 5.' }),
    field('productSku', 'SKU', 'string', { examples: ['SKU-2231'] }),
  ],
}

const invoiceDigestSchema = {
  fields: [
    field('invoice', 'Invoice file', 'file', {
      required: true,
      acceptedInputKinds: ['asset', 'url'],
      acceptedMimeTypes: ['application/pdf'],
    }),
    field('supplier', 'Supplier', 'string', { required: true }),
    field('amount', 'Amount', 'number'),
  ],
}

function listing(
  id: string,
  displayName: string,
  description: string,
  fee: number,
  state: {
    status: string
    saleStatus: string
    executionAvailabilityStatus: string
    reviewStatus: string
    reviewReason?: string
    reviewRequestId?: string
    version?: number
    publishedVersion?: number
  },
) {
  const version = `${id}-v${state.version ?? 1}`
  const published =
    state.publishedVersion === 0 ? '' : `${id}-v${state.publishedVersion ?? state.version ?? 1}`
  return {
    id,
    displayName,
    description,
    listingVersionId: version,
    publishedVersionId: published,
    packageHash: hash(`package:${version}`),
    pricingRuleVersion: 'flat-task-fee-1',
    pricingSnapshotHash: hash(`pricing:${version}:${fee}`),
    taskFixedFeeT: fee,
    status: state.status,
    saleStatus: state.saleStatus,
    executionAvailabilityStatus: state.executionAvailabilityStatus,
    reviewStatus: state.reviewStatus,
    reviewReason: state.reviewReason ?? '',
    reviewRequestId: state.reviewRequestId ?? '',
  }
}

const withColumns = (schema: { fields: Field[] }) => ({
  ...schema,
  columns: columnsOf(schema.fields),
})

/** The demo seed; `ownerUserId` is the first user's id (the demo user or the first token). */
export function demoSeed(ownerUserId: number): SeedFile {
  const onSale = {
    status: 'published',
    saleStatus: 'on_sale',
    executionAvailabilityStatus: 'available',
    reviewStatus: 'approved',
  }
  return {
    users: [{ userId: DEMO_OTHER_CREATOR_ID, name: 'Northwind Studio' }],
    officialTemplates: [
      {
        skill: 'summarize',
        taskCostT: 5,
        schema: {
          templateId: 'product-description-writer',
          name: 'Product description writer',
          description: 'Turns product facts into a short, shop-ready description.',
          scenario: 'E-commerce catalogue',
          version: '1.2.0',
          inputSummary: 'One row per product: name, category, features, price.',
          outputType: 'text/plain',
          instructions: [
            'Fill one row per product; leave optional cells empty when you do not know them.',
            'Write each key feature on its own line, or separate features with ";".',
            'Choose one tone of voice; it applies to every product in the run.',
          ],
          columns: columnsOf(productFields),
          fields: productFields,
          sampleRows: [
            {
              values: {
                productName: 'Bamboo cutting board',
                category: 'Kitchen',
                keyFeatures: ['Made from FSC-certified bamboo', 'Juice groove on one side'],
                price: 24.9,
                stockCount: 120,
                launchDate: '2025-04-01',
                productPage: 'https://shop.example.com/p/bamboo-board',
                ecoFriendly: true,
                tone: 'friendly',
              },
            },
            {
              values: {
                productName: 'Insulated water bottle',
                category: 'Outdoor',
                keyFeatures: ['Keeps drinks cold for 24 hours'],
                price: 19.5,
                ecoFriendly: false,
                tone: 'friendly',
              },
            },
          ],
        },
      },
      {
        skill: 'keywords',
        taskCostT: 3,
        schema: {
          templateId: 'support-ticket-triage',
          name: 'Support ticket triage',
          description: 'Finds the main topics of each support ticket so it reaches the right team.',
          scenario: 'Customer support',
          version: '2.0.1',
          inputSummary: 'One row per ticket with the customer message.',
          outputType: 'application/json',
          instructions: [
            'Export tickets from your help desk and paste one ticket per row.',
            'Customer email must be a valid address; the message is required.',
          ],
          columns: columnsOf(ticketFields),
          fields: ticketFields,
          sampleRows: [
            {
              values: {
                ticketId: 'T-10432',
                customerEmail: 'jane@example.com',
                subject: 'Order arrived damaged',
                body: 'My order arrived with a cracked lid. The box was damaged too. Can I get a replacement lid?',
                channel: 'email',
                receivedOn: '2025-03-02',
                isVip: false,
                previousTickets: 1,
              },
            },
          ],
        },
      },
      {
        skill: 'file-digest',
        taskCostT: 8,
        schema: {
          templateId: 'document-digest',
          name: 'Document digest',
          description:
            'Fingerprints documents: size and SHA-256 of each file, with the file returned.',
          scenario: 'Records management',
          version: '1.0.0',
          inputSummary: 'One row per document, with the file and a title.',
          outputType: 'application/json',
          instructions: [
            'Put the documents next to the workbook and write their relative paths in the Document column.',
            'Web addresses work too; the sandbox fingerprints the address itself, it does not download it.',
          ],
          columns: columnsOf(digestFields),
          fields: digestFields,
          sampleRows: [
            {
              values: {
                document: { url: 'https://files.example.com/reports/q1.pdf' },
                title: 'Quarterly report Q1',
                language: 'en',
                pageCount: 12,
                sourceUrl: 'https://intranet.example.com/reports',
                ownerEmail: 'finance@example.com',
                confidential: true,
              },
            },
          ],
        },
      },
      {
        skill: 'echo',
        taskCostT: 1,
        artifactMode: 'file',
        schema: {
          templateId: 'row-echo',
          name: 'Row echo',
          description:
            'Sends each row back as a downloadable JSON file. Handy for testing a workflow.',
          scenario: 'Testing',
          version: '1.0.0',
          inputSummary: 'Any message.',
          outputType: 'application/json',
          instructions: [
            'Write a message per row. Put [[fail]] in a cell to see how a failed row looks.',
          ],
          columns: columnsOf(echoFields),
          fields: echoFields,
          sampleRows: [{ values: { message: 'Hello from the sandbox', sequence: 1 } }],
        },
      },
    ],
    marketListings: [
      {
        skill: 'summarize',
        ownerUserId,
        createdAtUnix: T0,
        listing: listing(
          'press-release-polisher',
          'Press release polisher',
          'Tightens a draft press release into a crisp summary with a clear headline.',
          12,
          onSale,
        ),
        schema: withColumns(pressReleaseSchema),
      },
      {
        skill: 'keywords',
        ownerUserId,
        createdAtUnix: T0 + 86_400,
        listing: listing(
          'review-keyword-miner',
          'Review keyword miner',
          'Pulls the recurring words out of customer reviews so you see what people talk about.',
          4,
          onSale,
        ),
        schema: withColumns(reviewMinerSchema),
      },
      {
        skill: 'file-digest',
        ownerUserId: DEMO_OTHER_CREATOR_ID,
        createdAtUnix: T0 + 2 * 86_400,
        listing: listing(
          'invoice-fingerprint',
          'Invoice fingerprint',
          'Checks invoice files for duplicates by size and SHA-256. Sold by Northwind Studio.',
          20,
          onSale,
        ),
        schema: withColumns(invoiceDigestSchema),
      },
      {
        skill: 'echo',
        ownerUserId,
        createdAtUnix: T0 + 3 * 86_400,
        listing: listing(
          'recipe-scaler',
          'Recipe scaler',
          'Scales recipe quantities for any number of servings.',
          6,
          {
            status: 'pending_review',
            saleStatus: 'not_on_sale',
            executionAvailabilityStatus: 'unavailable',
            reviewStatus: 'pending',
            reviewRequestId: 'review-recipe-scaler-1',
            publishedVersion: 0,
          },
        ),
        schema: withColumns({
          fields: [
            field('recipe', 'Recipe', 'text', { required: true }),
            field('servings', 'Servings', 'integer', { required: true }),
          ],
        }),
      },
      {
        skill: 'keywords',
        ownerUserId,
        createdAtUnix: T0 + 4 * 86_400,
        listing: listing(
          'meeting-notes-tagger',
          'Meeting notes tagger',
          'Tags meeting notes with their main topics. Version 2 is waiting for review.',
          5,
          { ...onSale, reviewStatus: 'pending', version: 2, publishedVersion: 1 },
        ),
        schema: withColumns({ fields: [field('notes', 'Notes', 'text', { required: true })] }),
      },
      {
        skill: 'echo',
        ownerUserId,
        createdAtUnix: T0 + 5 * 86_400,
        listing: listing('horoscope-writer', 'Horoscope writer', 'Writes daily horoscopes.', 2, {
          status: 'rejected',
          saleStatus: 'not_on_sale',
          executionAvailabilityStatus: 'unavailable',
          reviewStatus: 'rejected',
          reviewReason: 'Listings must describe a verifiable result; horoscopes are not accepted.',
          reviewRequestId: 'review-horoscope-writer-1',
          publishedVersion: 0,
        }),
        schema: withColumns({ fields: [field('sign', 'Star sign', 'string', { required: true })] }),
      },
      {
        skill: 'summarize',
        ownerUserId,
        createdAtUnix: T0 + 6 * 86_400,
        listing: listing(
          'legacy-faq-builder',
          'FAQ builder (retired)',
          'Builds FAQ entries from support chats. No longer sold.',
          3,
          {
            status: 'unlisted',
            saleStatus: 'not_on_sale',
            executionAvailabilityStatus: 'unavailable',
            reviewStatus: 'approved',
          },
        ),
        schema: withColumns({
          fields: [field('chat', 'Chat transcript', 'text', { required: true })],
        }),
      },
    ],
    privateTemplates: [
      {
        ownerUserId,
        template: {
          templateId: 'weekly-status-report',
          name: 'Weekly status report',
          description: 'Turns project notes into a weekly status report for stakeholders.',
          status: 'active',
          primaryOutputType: 'text/markdown',
          latestVersionId: 'weekly-status-report-v2',
          publishedVersionId: 'weekly-status-report-v1',
          createdAtUnix: T0 - 30 * 86_400,
          updatedAtUnix: T0 - 2 * 86_400,
          versions: [
            {
              versionId: 'weekly-status-report-v1',
              versionNumber: 1,
              specVersion: '2024-11',
              definitionHash: hash('weekly-status-report-v1'),
              createdAtUnix: T0 - 30 * 86_400,
            },
            {
              versionId: 'weekly-status-report-v2',
              versionNumber: 2,
              specVersion: '2025-02',
              definitionHash: hash('weekly-status-report-v2'),
              createdAtUnix: T0 - 2 * 86_400,
            },
          ],
        },
      },
    ],
    reviewRequests: [
      {
        ownerUserId,
        request: {
          id: 'review-recipe-scaler-1',
          listingId: 'recipe-scaler',
          listingVersionId: 'recipe-scaler-v1',
          displayName: 'Recipe scaler',
          description: 'Scales recipe quantities for any number of servings.',
          status: 'pending',
          reviewReason: '',
          submittedAtUnix: T0 + 3 * 86_400,
          reviewedAtUnix: 0,
        },
      },
      {
        ownerUserId,
        request: {
          id: 'review-horoscope-writer-1',
          listingId: 'horoscope-writer',
          listingVersionId: 'horoscope-writer-v1',
          displayName: 'Horoscope writer',
          description: 'Writes daily horoscopes.',
          status: 'rejected',
          reviewReason: 'Listings must describe a verifiable result; horoscopes are not accepted.',
          submittedAtUnix: T0 + 5 * 86_400,
          reviewedAtUnix: T0 + 6 * 86_400,
        },
      },
    ],
  }
}
