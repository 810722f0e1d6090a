/// The schema §5's examples use: the preamble's types (Dog, Cat, Pet, Human, ...),
/// plus the additions the spec makes along the way — `human`, `pet`, `catOrDog` on
/// Query (§5.3.3), the `Arguments` type and `Query.arguments` (§5.4),
/// `Query.booleanList` (§5.8.2) — written into
/// the type definitions instead of as `extend type`. `nonNullBooleanListField` (used
/// in §5.8.5 but not defined by the spec) and a `Subscription` root with the fields of
/// §5.2.4.1's examples are added so those examples validate as the spec intends.
let specExampleSDL = """
    type Query {
      dog: Dog
      findDog(searchBy: FindDogInput): Dog
      human: Human
      pet: Pet
      catOrDog: CatOrDog
      arguments: Arguments
      booleanList(booleanListArg: [Boolean!]): Boolean
    }

    type Mutation {
      addPet(pet: PetInput!): Pet
      addPets(pets: [PetInput!]!): [Pet]
    }

    type Subscription {
      newMessage: Message
      disallowedSecondRootField: Boolean
    }

    type Message {
      body: String
      sender: String
    }

    enum DogCommand {
      SIT
      DOWN
      HEEL
    }

    type Dog implements Pet {
      name: String!
      nickname: String
      barkVolume: Int
      doesKnowCommand(dogCommand: DogCommand!): Boolean!
      isHouseTrained(atOtherHomes: Boolean): Boolean!
      owner: Human
    }

    interface Sentient {
      name: String!
    }

    interface Pet {
      name: String!
    }

    type Alien implements Sentient {
      name: String!
      homePlanet: String
    }

    type Human implements Sentient {
      name: String!
      pets: [Pet!]
    }

    enum CatCommand {
      JUMP
    }

    type Cat implements Pet {
      name: String!
      nickname: String
      doesKnowCommand(catCommand: CatCommand!): Boolean!
      meowVolume: Int
    }

    union CatOrDog = Cat | Dog
    union DogOrHuman = Dog | Human
    union HumanOrAlien = Human | Alien

    input FindDogInput {
      name: String
      owner: String
    }

    input CatInput {
      name: String!
      nickname: String
      meowVolume: Int
    }

    input DogInput {
      name: String!
      nickname: String
      barkVolume: Int
    }

    input PetInput @oneOf {
      cat: CatInput
      dog: DogInput
    }

    type Arguments {
      multipleRequirements(x: Int!, y: Int!): Int!
      booleanArgField(booleanArg: Boolean): Boolean
      floatArgField(floatArg: Float): Float
      intArgField(intArg: Int): Int
      nonNullBooleanArgField(nonNullBooleanArg: Boolean!): Boolean!
      booleanListArgField(booleanListArg: [Boolean]!): [Boolean]
      optionalNonNullBooleanArgField(optionalBooleanArg: Boolean! = false): Boolean!
      nonNullBooleanListField(nonNullBooleanListArg: [Boolean]!): [Boolean]
    }
    """
