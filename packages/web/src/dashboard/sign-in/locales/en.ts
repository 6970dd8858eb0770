// The words of the dashboard's sign-in pages in English: a part of the dashboard's catalogue,
// loaded with the pages; the second step's enrolment says its own through props.

export default {
  signIn: {
    title: 'Sign in',
    forgot: 'Forgot your password?',
    notYet:
      'No account yet? The first start of the server printed a one-time sign-in link; an owner can invite you from Settings, or run {{command}}.',
  },
  reset: {
    who: 'an account',
    withoutMail: 'This Tally cannot send e-mail. Whoever runs it can print a link for you with npx tally users reset <your e-mail>.',
  },
  enrol: {
    intro:
      'A program you run requires a second factor. Scan this code with your authenticator app (or type the key below), then enter the code it shows.',
    recovery: 'Your recovery codes, shown only now. Each works once, if you lose your phone: keep them apart from it.',
    qr: 'QR code of the key, for your authenticator app',
    key: 'Key:',
  },
  welcome: {
    incomplete: 'This link is incomplete',
    incompleteText: 'Open the whole sign-in link you were given, or ask an owner for a new one.',
    title: 'Welcome to Tally',
    intro:
      'Choose the password you will sign in with. Already have an account on this Tally? Give its password instead, and the invitation joins it. The link works once, for 24 hours.',
    email: 'E-mail',
    emailHint: '(the first owner chooses it here; invited people leave it empty)',
    password: 'Password',
    passwordHint: '(at least 10 characters)',
    set: 'Set password and sign in',
  },
};
