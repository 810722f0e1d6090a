import Testing

@Suite("§5.5.2.3 Fragment Spread Is Possible")
struct PossibleFragmentSpreadsRuleTests {
    @Test("§5.5.2.3 object, abstract-in-object and abstract-in-abstract spreads that overlap are valid")
    func valid() {
        let query = """
            { dog { ...dogFragment ...interfaceWithinObjectFragment ...unionWithObjectFragment } pet { ...petFragment ...unionWithInterface } catOrDog { ...catOrDogFragment } }
            fragment dogFragment on Dog {
              ... on Dog {
                barkVolume
              }
            }
            fragment petNameFragment on Pet {
              name
            }
            fragment interfaceWithinObjectFragment on Dog {
              ...petNameFragment
            }
            fragment catOrDogNameFragment on CatOrDog {
              ... on Cat {
                meowVolume
              }
            }
            fragment unionWithObjectFragment on Dog {
              ...catOrDogNameFragment
            }
            fragment petFragment on Pet {
              name
              ... on Dog {
                barkVolume
              }
            }
            fragment catOrDogFragment on CatOrDog {
              ... on Cat {
                meowVolume
              }
            }
            fragment unionWithInterface on Pet {
              ...dogOrHumanFragment
            }
            fragment dogOrHumanFragment on DogOrHuman {
              ... on Dog {
                barkVolume
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.5.2.3 counter-example: a Cat fragment inside a Dog fragment is rejected")
    func objectInObject() {
        let query = """
            { dog { ...catInDogFragmentInvalid } }
            fragment catInDogFragmentInvalid on Dog {
              ... on Cat {
                meowVolume
              }
            }
            """
        #expect(
            validate(query) == [
                error("Fragment cannot be spread here as objects of type \"Dog\" can never be of type \"Cat\".", (3, 3))
            ])
    }

    @Test("§5.5.2.3 counter-example: objects in abstract scopes they do not belong to are rejected")
    func objectInAbstract() {
        let query = """
            { human { ...sentientFragment ...humanOrAlienFragment } }
            fragment sentientFragment on Sentient {
              ... on Dog {
                barkVolume
              }
            }
            fragment humanOrAlienFragment on HumanOrAlien {
              ... on Cat {
                meowVolume
              }
            }
            """
        #expect(
            validate(query) == [
                error("Fragment cannot be spread here as objects of type \"Sentient\" can never be of type \"Dog\".", (3, 3)),
                error("Fragment cannot be spread here as objects of type \"HumanOrAlien\" can never be of type \"Cat\".", (8, 3)),
            ])
    }

    @Test("§5.5.2.3 counter-example: non-intersecting interfaces are rejected at the spread")
    func abstractInAbstract() {
        let query = """
            { pet { ...nonIntersectingInterfaces } }
            fragment nonIntersectingInterfaces on Pet {
              ...sentientFragment
            }
            fragment sentientFragment on Sentient {
              name
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Fragment \"sentientFragment\" cannot be spread here as objects of type \"Pet\" can never be of type \"Sentient\".",
                    (3, 3))
            ])
    }
}
